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

// A near-miss form is planted inside a span that names itself at both
// ends, "⟦SIMKEEP<12 hex> ... SIMKEEP<12 hex>⟧", so that the harness finds
// it again in a result error and, when the span is there whole (not cut),
// compares it with the image the planter recorded (Secrets.Image). The
// brackets are neither word characters nor whitespace: they change no
// pattern's match.
const (
	KeepMarker = "SIMKEEP"
	SpanOpen   = "⟦"
	SpanClose  = "⟧"
)

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
	// image, for a near-miss form, is what the redactor must leave of
	// text(secret): each credential replaced by its SPEC 1.4 image, every
	// near miss as written. Nil for the other forms.
	image func() string
}

// SecretForms are the forms Secrets plants, in a fixed order.
var SecretForms = []SecretForm{
	{"token", func(s string) string { return "token=" + s + "&retry=1" }, nil},
	{"token-unicode-space", func(s string) string { return "ToKeN=" + s + "\u00a0tail" }, nil},
	{"api_key", func(s string) string { return "api_key=" + s }, nil},
	{"api-key", func(s string) string { return "API-Key=" + s + ",x" }, nil},
	{"apikey", func(s string) string { return "apikey=" + s }, nil},
	{"password", func(s string) string { return "Password=" + s + ";" }, nil},
	{"secret", func(s string) string { return "SECRET=" + s }, nil},
	{"cookie", func(s string) string { return "cookie=" + s + " path=/" }, nil},
	{"authorization", func(s string) string { return "Authorization=" + s }, nil},
	{"authorization-header", func(s string) string { return "authorization: Bearer " + s }, nil},
	{"bearer-mixed-case", func(s string) string { return "bEaReR   " + s + ", retry" }, nil},
	{"bearer-nbsp", func(s string) string { return "Bearer\u00a0" + s }, nil},
	{"bearer-line-separator", func(s string) string { return "bearer\u2028\u3000" + s + ";" }, nil},
	{"bearer-bom", func(s string) string { return "BEARER\ufeff" + s }, nil},
	// The other ends of JavaScript's \s ranges and its single code points
	// outside Latin-1, one per form: a redactor whose whitespace test misses
	// one leaves the token after it.
	{"bearer-en-quad", func(s string) string { return "Bearer\u2000" + s }, nil},
	{"bearer-hair-space", func(s string) string { return "bearer\u200a" + s + ";" }, nil},
	{"bearer-ogham-space", func(s string) string { return "Bearer\u1680" + s }, nil},
	{"bearer-paragraph-separator", func(s string) string { return "Bearer\u2029" + s }, nil},
	{"bearer-narrow-nbsp", func(s string) string { return "BEARER\u202f" + s }, nil},
	{"bearer-math-space", func(s string) string { return "Bearer\u205f" + s + ",x" }, nil},
	// DEL after the comma outlives the redaction: only the control-character
	// step (SPEC 1.4: < 0x20 and 0x7F) removes it.
	{"bearer-control", func(s string) string { return "Bearer\t\x00" + s + ",\x7f" }, nil},
	{"past-cut", func(s string) string { return pastCutPadding + "password: " + s }, nil},
	// Near misses: text each pattern almost matches and must leave alone
	// (a keyword inside a longer word, a value that is empty or ends at
	// '&', a Bearer not at a word start or followed by no token, a keyword
	// spelt with a non-ASCII letter that only Unicode case folding takes
	// for ASCII), around one real credential. They hold the redactor to
	// exactly the patterns: redacting more loses the text a reader needs.
	{"near-miss-words", func(s string) string {
		return "mytoken=k1 x_password=k2 api_keyx=k3 xBearer k4 to\u212aen=k5 token=" + s
	}, func() string {
		return "mytoken=k1 x_password=k2 api_keyx=k3 xBearer k4 to\u212aen=k5 token=[REDACTED]"
	}},
	// The edges of \w: a keyword right after the first and last letter of
	// each case, a digit or '_' is inside a word (left alone); right after
	// the ASCII characters beside those ranges ('@', '[', '`', '{', '/',
	// ':') it starts one (redacted). A redactor whose word test is off by
	// one at a range's end redacts too much or too little here.
	{"near-miss-word-edges", func(s string) string {
		return "Ztoken=k1 zpassword=k2 0secret=k3 9cookie=k4 Aapikey=k5 aauthorization=k6 _api-key=k7 token=" + s
	}, func() string {
		return "Ztoken=k1 zpassword=k2 0secret=k3 9cookie=k4 Aapikey=k5 aauthorization=k6 _api-key=k7 token=[REDACTED]"
	}},
	{"near-miss-word-starts", func(s string) string {
		return "@token=" + s + " [password=k2 `secret=k3 {cookie=k4 /apikey=k5 :api_key=k6"
	}, func() string {
		return "@token=[REDACTED] [password=[REDACTED] `secret=[REDACTED] {cookie=[REDACTED] /apikey=[REDACTED] :api_key=[REDACTED]"
	}},
	// Code points beside JavaScript's \s that are not in it (zero-width
	// space and non-joiner, U+1FFF, the Mongolian vowel separator): a
	// Bearer followed by one is no Bearer token.
	{"near-miss-not-spaces", func(s string) string {
		return "Bearer\u200bk1 Bearer\u200ck2 Bearer\u1fffk3 Bearer\u180ek4 Bearer\u2030k5 token=" + s
	}, func() string {
		return "Bearer\u200bk1 Bearer\u200ck2 Bearer\u1fffk3 Bearer\u180ek4 Bearer\u2030k5 token=[REDACTED]"
	}},
	{"near-miss-stops", func(s string) string {
		return "a=1&Token=" + s + "&keep=2 password= k3 Bearer ,k4 bearer;k5 cookie=&k6"
	}, func() string {
		return "a=1&Token=[REDACTED]&keep=2 password= k3 Bearer ,k4 bearer;k5 cookie=&k6"
	}},
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
	shapes  *rand.Rand        // error shapes (errshape.go), a stream of its own
	planted map[string]int    // form name -> count
	shaped  map[string]int    // error shape name -> count
	images  map[string]string // near-miss span id -> the span as redacted
}

// NewSecrets returns a planter drawing from rng.
func NewSecrets(rng *rand.Rand) *Secrets {
	shapes := rand.New(rand.NewPCG(rng.Uint64(), rng.Uint64()))
	return &Secrets{rng: rng, shapes: shapes, planted: map[string]int{}, shaped: map[string]int{}, images: map[string]string{}}
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
func (s *Secrets) injected(k Kind, msg string) error { return s.plant(k, msg, false) }

// broken is injected for the error a dead connection answers every later
// call with. Its class stays within the classifiers' reach: the library
// under a real client names a dead session plainly ("rpc session was shut
// down"), and a handle whose every call failed unclassified would stay
// cached forever (SPEC 5.2: a non-transport error leaves it), which is the
// shape's doing, not the workspace's.
func (s *Secrets) broken(k Kind, msg string) error { return s.plant(k, msg, true) }

func (s *Secrets) plant(k Kind, msg string, classified bool) error {
	e := &InjectedError{Kind: k, Msg: msg, class: classOf[msg]}
	if s == nil {
		return e
	}
	f := SecretForms[s.rng.IntN(len(SecretForms))]
	secret := s.markerID(SecretMarker)
	e.Credential = f.text(secret)
	if f.image != nil {
		id := s.markerID(KeepMarker)
		e.Credential = SpanOpen + id + " " + e.Credential + " " + id + SpanClose
		s.images[id] = SpanOpen + id + " " + f.image() + " " + id + SpanClose
	}
	// One credential in four leads the text (the space after it ends every
	// form's value, so what follows is never taken for part of it).
	e.Leading = s.rng.IntN(4) == 0
	s.planted[f.Name]++
	return shape(s.shapes, e, s.shaped, classified)
}

// markerID draws marker followed by secretDigits lowercase hex digits.
func (s *Secrets) markerID(marker string) string {
	digits := strconv.FormatUint(s.rng.Uint64()>>(64-4*secretDigits), 16)
	return marker + strings.Repeat("0", secretDigits-len(digits)) + digits
}

// Image returns what the redactor must leave of the near-miss span named
// id, anchors included, if this planter planted it.
func (s *Secrets) Image(id string) (string, bool) {
	if s == nil {
		return "", false
	}
	img, ok := s.images[id]
	return img, ok
}

// NextSpan finds the first near-miss span in text: its id, and the span
// from its opening bracket through its closing one when text holds it
// whole (whole false: text ends inside it, as a cut leaves it). rest is
// the text after the span (after the opening anchor when not whole). ok is
// false when text holds no opening anchor.
func NextSpan(text string) (id, span, rest string, whole, ok bool) {
	open := SpanOpen + KeepMarker
	for {
		i := strings.Index(text, open)
		if i < 0 {
			return "", "", "", false, false
		}
		text = text[i:]
		n := len(SpanOpen) + len(KeepMarker) + secretDigits
		if len(text) < n || strings.IndexFunc(text[len(open):n], func(r rune) bool { return r > 127 || !isLowerHex(byte(r)) }) >= 0 {
			text = text[len(open):] // an anchor the cut shortened, or not one
			continue
		}
		id = text[len(SpanOpen):n]
		end := strings.Index(text[n:], " "+id+SpanClose)
		if end < 0 {
			return id, "", text[n:], false, true
		}
		end += n + len(" "+id+SpanClose)
		return id, text[:end], text[end:], true, true
	}
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
