package oracle

import (
	"fmt"
	"strings"
)

// The property tables of the documentation are renderings of the
// registry, so that they cannot drift from it: model/doc.go's (a Go doc
// comment) and docs/properties.md's (a Markdown table). TestRegistryTables
// holds both files to them; `go test ./sim/oracle -run TestRegistryTables
// -rewrite` writes them.

// DocCommentTable renders the registry as the lines of a Go doc comment: a
// preformatted block, one property a line with its SPEC section, its basis
// and where it is judged.
func DocCommentTable() string {
	var b strings.Builder
	b.WriteString("//\n")
	fmt.Fprintf(&b, "//\t%-24s %-28s %-19s %s\n", "property", "SPEC", "basis", "judged by")
	for i := range Registry {
		p := &Registry[i]
		fmt.Fprintf(&b, "//\t%-24s %-28s %-19s %s\n", p.Name, orDash(p.Spec), p.Basis, p.JudgedBy())
	}
	b.WriteString("//\n")
	return b.String()
}

// MarkdownTable renders the registry as a Markdown table: property, SPEC
// section, basis, where it is judged (its checker, or still the driver)
// and what it checks.
func MarkdownTable() string {
	var b strings.Builder
	b.WriteString("| property | SPEC | judged from | judged by | what it checks |\n|---|---|---|---|---|\n")
	cell := func(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
	for i := range Registry {
		p := &Registry[i]
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n", p.Name, cell(orDash(p.Spec)), p.Basis, p.JudgedBy(), cell(p.What))
	}
	return b.String()
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// JudgedBy says where the property is judged: "checker" (its own checker
// over the history) or "driver" (until it moves, inside package sim).
func (p *Property) JudgedBy() string {
	if p.InOracle() {
		return "checker"
	}
	return "driver"
}

// Table markers: the generated table sits between them.
const (
	DocBegin = "// <properties:begin>\n"
	DocEnd   = "// <properties:end>\n"
	MDBegin  = "<!-- properties:begin -->\n"
	MDEnd    = "<!-- properties:end -->\n"
)

// Splice returns text with what lies between begin and end replaced by
// table; false when text lacks the markers.
func Splice(text, begin, end, table string) (string, bool) {
	i := strings.Index(text, begin)
	if i < 0 {
		return text, false
	}
	j := strings.Index(text[i+len(begin):], end)
	if j < 0 {
		return text, false
	}
	j += i + len(begin)
	return text[:i+len(begin)] + table + text[j:], true
}
