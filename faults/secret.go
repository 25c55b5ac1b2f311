package faults

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"unicode/utf16"
)

// SecretMarker begins every fake credential the harness plants in the text
// of an injected error. It is followed by 12 lowercase hex digits. Any
// occurrence of it in a result error, a stored field or a trace line is a
// leak: the redactor (SPEC 1.4) must have replaced it, or the truncation
// must have cut it off.
//
// NB: "SIMSECRET" holds "SECRET" after word characters, so it never forms
// a redactable `secret=` of its own: only the form around it decides.
const SecretMarker = "SIMSECRET"

// secretDigits is how many hex digits follow SecretMarker.
const secretDigits = 12

// maxSafeErrorUnits mirrors the SPEC 1.4 cut (512 UTF-16 code units). The
// past-cut form pads its credential beyond it.
const maxSafeErrorUnits = 512

// A SecretForm is one way a credential appears in an error text, each a
// case the redactor of SPEC 1.4 must catch: the assignment names in their
// spellings and mixed case, Bearer tokens behind ASCII, Unicode and control
// whitespace, and a credential the redactor does not match but the
// truncation must cut away.
type SecretForm struct {
	Name string
	text func(secret string) string
}

// SecretForms are the forms Secrets plants, in a fixed order.
var SecretForms = []SecretForm{
	{"token", func(s string) string { return "token=" + s + "&retry=1" }},
	{"token-unicode-space", func(s string) string { return "ToKeN=" + s + "\u00a0tail" }},
	{"api_key", func(s string) string { return "api_key=" + s }},
	{"api-key", func(s string) string { return "API-Key=" + s + ",x" }},
	{"apikey", func(s string) string { return "apikey=" + s }},
	{"password", func(s string) string { return "Password=" + s + ";" }},
	{"secret", func(s string) string { return "SECRET=" + s }},
	{"cookie", func(s string) string { return "cookie=" + s + " path=/" }},
	{"authorization", func(s string) string { return "Authorization=" + s }},
	{"authorization-header", func(s string) string { return "authorization: Bearer " + s }},
	{"bearer-mixed-case", func(s string) string { return "bEaReR   " + s + ", retry" }},
	{"bearer-nbsp", func(s string) string { return "Bearer\u00a0" + s }},
	{"bearer-line-separator", func(s string) string { return "bearer\u2028\u3000" + s + ";" }},
	{"bearer-bom", func(s string) string { return "BEARER\ufeff" + s }},
	// DEL after the comma outlives the redaction: only the control-character
	// step (SPEC 1.4: < 0x20 and 0x7F) removes it.
	{"bearer-control", func(s string) string { return "Bearer\t\x00" + s + ",\x7f" }},
	{"past-cut", func(s string) string { return pastCutPadding + "password: " + s }},
}

// PastCutPadding is the padding of the past-cut form: a safe message that
// holds its start was cut, since the padding alone is longer than the cut.
func PastCutPadding() string { return pastCutPadding }

// pastCutPadding puts what follows it past the 512-unit cut whatever comes
// before it. It is mostly astral characters (two UTF-16 units, one rune
// each), so the credential after it lies past the cut in UTF-16 units but
// well inside it in runes: a cut that counts runes instead of units leaks
// it. It holds no transport phrase (SPEC 5.2) and nothing redactable.
var pastCutPadding = func() string {
	var b strings.Builder
	b.WriteString("context:")
	for units := 0; units <= maxSafeErrorUnits; {
		const piece = " \U0001F4E6\U0001F4E6\U0001F4E6"
		b.WriteString(piece)
		units += len(utf16.Encode([]rune(piece)))
	}
	b.WriteString("; ")
	return b.String()
}()

// Secrets plants fake credentials, one per injected error, in a form drawn
// from its own random stream (so planting never moves a fault draw), and
// counts what it planted per form.
type Secrets struct {
	rng     *rand.Rand
	shapes  *rand.Rand     // error shapes (errshape.go), a stream of its own
	planted map[string]int // form name -> count
	shaped  map[string]int // error shape name -> count
}

// NewSecrets returns a planter drawing from rng.
func NewSecrets(rng *rand.Rand) *Secrets {
	shapes := rand.New(rand.NewPCG(rng.Uint64(), rng.Uint64()))
	return &Secrets{rng: rng, shapes: shapes, planted: map[string]int{}, shaped: map[string]int{}}
}

// Planted returns the count of credentials planted per form name.
func (s *Secrets) Planted() map[string]int {
	if s == nil {
		return nil
	}
	out := make(map[string]int, len(s.planted))
	for k, v := range s.planted {
		out[k] = v
	}
	return out
}

// injected builds an InjectedError of kind k; with a planter, a credential
// is appended to its text and a transport failure takes a drawn shape
// (errshape.go). A nil planter plants nothing and shapes nothing.
func (s *Secrets) injected(k Kind, msg string) error {
	e := &InjectedError{Kind: k, Msg: msg, class: classOf[msg]}
	if s == nil {
		return e
	}
	f := SecretForms[s.rng.IntN(len(SecretForms))]
	digits := strconv.FormatUint(s.rng.Uint64()>>(64-4*secretDigits), 16)
	secret := SecretMarker + strings.Repeat("0", secretDigits-len(digits)) + digits
	e.Credential = f.text(secret)
	s.planted[f.Name]++
	return shape(s.shapes, e, s.shaped)
}

// Shapes returns how many injected transport failures took each error
// shape (errshape.go).
func (s *Secrets) Shapes() map[string]int {
	if s == nil {
		return nil
	}
	out := make(map[string]int, len(s.shaped))
	for k, v := range s.shaped {
		out[k] = v
	}
	return out
}

// ContainsSecret reports whether text carries any part of a planted
// credential (its marker).
func ContainsSecret(text string) bool { return strings.Contains(text, SecretMarker) }

// ScrubSecrets replaces every planted credential in text by "[planted]", so
// the harness's own trace and reports never repeat one. Text without the
// marker is returned as is, without allocating.
func ScrubSecrets(text string) string {
	i := strings.Index(text, SecretMarker)
	if i < 0 {
		return text
	}
	var b strings.Builder
	for i >= 0 {
		b.WriteString(text[:i])
		b.WriteString("[planted]")
		j := i + len(SecretMarker)
		for n := 0; n < secretDigits && j < len(text) && isLowerHex(text[j]); n++ {
			j++
		}
		text = text[j:]
		i = strings.Index(text, SecretMarker)
	}
	b.WriteString(text)
	return b.String()
}

// PublicText is err's text with planted credentials scrubbed: what the
// harness records and prints of an error.
func PublicText(err error) string {
	if err == nil {
		return ""
	}
	return ScrubSecrets(err.Error())
}

func isLowerHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' }
