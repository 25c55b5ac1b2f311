package oracle

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var rewrite = flag.Bool("rewrite", false, "rewrite the property tables of model/doc.go and docs/properties.md from the registry")

// The documentation's property tables are the registry's: model/doc.go's
// and docs/properties.md's, between their markers.
func TestRegistryTables(t *testing.T) {
	for _, tc := range []struct {
		path, begin, end, table string
	}{
		{"../../model/doc.go", DocBegin, DocEnd, DocCommentTable()},
		{"../../docs/properties.md", MDBegin, MDEnd, MarkdownTable()},
	} {
		raw, err := os.ReadFile(tc.path)
		if err != nil {
			t.Fatal(err)
		}
		want, ok := Splice(string(raw), tc.begin, tc.end, tc.table)
		if !ok {
			t.Errorf("%s: no table markers %q ... %q", filepath.Clean(tc.path), tc.begin, tc.end)
			continue
		}
		if want == string(raw) {
			continue
		}
		if *rewrite {
			if err := os.WriteFile(tc.path, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		t.Errorf("%s: its property table is not the registry's; run go test ./sim/oracle -run TestRegistryTables -rewrite", filepath.Clean(tc.path))
	}
}
