package event

import (
	"errors"
	"strconv"
	"strings"
	"time"
)

// This file reads trace text back into events: the one way text becomes an
// Event (corpus expectations, the explain page and the tests read a run's
// trace through it). It is the inverse of Event.AppendText: for every line
// it accepts, rendering the event gives the line back byte for byte, so it
// refuses text no event renders to (a raw line break, a needlessly quoted
// actor, a time not in Offset's form) rather than guess.

// ErrNotEvent wraps every reason ParseEvent gives for refusing a line.
var ErrNotEvent = errors.New("not a trace event line")

func notEvent(why string) error { return &eventError{why} }

type eventError struct{ why string }

func (e *eventError) Error() string { return ErrNotEvent.Error() + ": " + e.why }
func (e *eventError) Unwrap() error { return ErrNotEvent }

// recordFlags are the words a runtime or store call prints alone (the
// faults package's record format); every other word at a key's place is
// followed by its value.
var recordFlags = []string{"relaunched", "eof", "armed", "not-found"}

// ParseEvent reads one event line, "+0000012.345 actor kind fields...", as
// Trace prints it. Header lines, the "trace-hash" line and the "... n
// earlier lines not kept" line are not events and return an error wrapping
// ErrNotEvent.
func ParseEvent(line string) (Event, error) {
	if lineBreakIn(line) {
		return Event{}, notEvent("a raw line break")
	}
	ts, rest, ok := strings.Cut(line, " ")
	if !ok {
		return Event{}, notEvent("no actor")
	}
	at, err := ParseOffset(ts)
	if err != nil {
		return Event{}, err
	}
	e := Event{At: at}
	if e.Actor, rest, err = headField(rest); err != nil {
		return Event{}, err
	}
	if rest == "" {
		return Event{}, notEvent("no kind")
	}
	rest = rest[1:] // headField stopped at the space
	if e.Kind, rest, err = headField(rest); err != nil {
		return Event{}, err
	}
	if rest == "" {
		return e, nil
	}
	body := rest[1:]
	if e.IsRecord() {
		e.Fields = parseRecordBody(body)
	} else {
		e.Fields = parseDetails(body)
	}
	return e, nil
}

// ParseOffset reads a time as Offset prints it ([+-]SSSSSSS.mmm, wider when
// the seconds need it). Only Offset's own form is accepted, so that
// Offset(d) gives s back.
func ParseOffset(s string) (time.Duration, error) {
	if len(s) < 2 || (s[0] != '+' && s[0] != '-') {
		return 0, notEvent("time " + strconv.Quote(s) + " is not [+-]SSSSSSS.mmm")
	}
	whole, frac, ok := strings.Cut(s[1:], ".")
	sec, err1 := strconv.ParseInt(whole, 10, 64)
	msec, err2 := strconv.ParseInt(frac, 10, 64)
	if !ok || err1 != nil || err2 != nil || len(frac) != 3 || sec < 0 || msec < 0 || sec > maxOffsetMS/1000 {
		return 0, notEvent("time " + strconv.Quote(s) + " is not [+-]SSSSSSS.mmm")
	}
	ms := sec*1000 + msec
	if ms > maxOffsetMS {
		return 0, notEvent("time " + strconv.Quote(s) + " is out of range")
	}
	d := time.Duration(ms) * time.Millisecond
	if s[0] == '-' {
		d = -d
	}
	if Offset(d) != s {
		return 0, notEvent("time " + strconv.Quote(s) + " is not in Offset's form")
	}
	return d, nil
}

// maxOffsetMS is the longest time.Duration in whole milliseconds.
const maxOffsetMS = int64(1<<63-1) / int64(time.Millisecond)

// headField reads an actor or kind up to the next space (or the end): raw,
// or Go-quoted when appendHeadField would quote it.
func headField(s string) (field, rest string, err error) {
	if strings.HasPrefix(s, `"`) {
		q, ok := quotedToken(s)
		if !ok {
			return "", "", notEvent("a badly quoted actor or kind")
		}
		u, _ := strconv.Unquote(q)
		if !needsHeadQuote(u) {
			return "", "", notEvent("an actor or kind quoted without need")
		}
		return u, s[len(q):], nil
	}
	field, _, _ = strings.Cut(s, " ")
	if field == "" {
		return "", "", notEvent("an empty actor or kind")
	}
	return field, s[len(field):], nil
}

// quotedToken returns the Go-quoted string s starts with when it is in
// strconv.Quote's own form and a space or the end follows it.
func quotedToken(s string) (string, bool) {
	q, err := strconv.QuotedPrefix(s)
	if err != nil || (len(q) < len(s) && s[len(q)] != ' ') {
		return "", false
	}
	u, err := strconv.Unquote(q)
	if err != nil || strconv.Quote(u) != q {
		return "", false
	}
	return q, true
}

// token is one space-separated piece of a body: raw, or Go-quoted (value
// unquoted), or a {...} group kept raw.
type token struct {
	text   string // as printed
	value  string
	quoted bool
	group  bool // a closed {...} group
}

// nextToken reads the token s starts with; s holds no leading space. A
// token may be empty (two spaces in a row: an empty runtime id).
func nextToken(s string) (token, string) {
	if strings.HasPrefix(s, `"`) {
		if q, ok := quotedToken(s); ok {
			u, _ := strconv.Unquote(q)
			return token{text: q, value: u, quoted: true}, s[len(q):]
		}
	}
	if strings.HasPrefix(s, "{") {
		if n := groupEnd(s); n > 0 && (n == len(s) || s[n] == ' ') {
			return token{text: s[:n], value: s[:n], group: true}, s[n:]
		}
	}
	w, _, _ := strings.Cut(s, " ")
	return token{text: w, value: w}, s[len(w):]
}

// groupEnd returns the length of the {...} group s starts with, honouring
// nesting and quoted strings; 0 when it is not closed.
func groupEnd(s string) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '"':
			if q, err := strconv.QuotedPrefix(s[i:]); err == nil {
				i += len(q) - 1
			}
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return 0
}

// tokens splits a body at single spaces into tokens; an empty body is one
// empty token.
func tokens(s string) []token { return splitSpaced(s, nextToken) }

// splitSpaced reads s as pieces separated by single spaces, each read by
// next (which returns what follows its piece: "" or a space and more).
func splitSpaced[T any](s string, next func(string) (T, string)) []T {
	var out []T
	for {
		t, rest := next(s)
		out = append(out, t)
		if rest == "" {
			return out
		}
		s = rest[1:]
	}
}

// wholeQuoted returns the text of s when s is one Go-quoted token holding a
// line break: a detail or record body the trace quoted whole.
func wholeQuoted(s string) (string, bool) {
	q, ok := quotedToken(s)
	if !ok || len(q) != len(s) {
		return "", false
	}
	u, _ := strconv.Unquote(q)
	return u, lineBreakIn(u)
}

// parseRecordBody reads a runtime or store call: "#seq op [backend] ...".
func parseRecordBody(body string) []Field {
	if inner, ok := wholeQuoted(body); ok {
		body = inner
	}
	return recordFields(tokens(body), true)
}

// recordFields names a record's tokens. With positional, the first token
// is the sequence number (when it starts with '#'), the next the op, and a
// store call's next its backend. Then, at a key's place: a quoted token is
// the command, a {...} group the intent, a flag word or the last word a
// Flag, any other word a key whose value is the next token.
func recordFields(toks []token, positional bool) []Field {
	out := make([]Field, 0, len(toks))
	i := 0
	if positional {
		if t := toks[0]; !t.quoted && strings.HasPrefix(t.text, "#") {
			out = append(out, Field{Key: "seq", Value: t.text[1:], Form: Seq})
			i++
		}
		if i < len(toks) {
			t := toks[i]
			out = append(out, Field{Key: "op", Value: t.value, Form: Bare, Quoted: t.quoted})
			i++
			if strings.HasPrefix(t.value, "store-") && !t.quoted && i < len(toks) {
				t := toks[i]
				out = append(out, Field{Key: "backend", Value: t.value, Form: Bare, Quoted: t.quoted})
				i++
			}
		}
	}
	for ; i < len(toks); i++ {
		t := toks[i]
		switch {
		case t.quoted:
			out = append(out, Field{Key: "command", Value: t.value, Form: Bare, Quoted: true})
		case t.group:
			out = append(out, Field{Key: "intent", Value: t.value, Form: Bare})
		case i == len(toks)-1 || isRecordFlag(t.text):
			out = append(out, Field{Key: t.text, Form: Flag})
		default:
			v := toks[i+1]
			out = append(out, Field{Key: t.text, Value: v.value, Form: Word, Quoted: v.quoted})
			i++
		}
	}
	return out
}

func isRecordFlag(w string) bool {
	for _, f := range recordFlags {
		if w == f {
			return true
		}
	}
	return false
}

// Group reads a {...} value (an intent, as a store call or a plant event
// prints it: "{backend b0 runtime r target {2,null} attempt 1 notBefore
// +0000001.000}") as Word fields. ok is false when the value is not a
// closed group.
func (f Field) Group() (fields []Field, ok bool) {
	v := f.Value
	if f.Quoted || len(v) < 2 || v[0] != '{' || groupEnd(v) != len(v) {
		return nil, false
	}
	inner := v[1 : len(v)-1]
	if inner == "" {
		return nil, true
	}
	return recordFields(tokens(inner), false), true
}

// ParseDetails reads space-separated key=value details (and bare words) as
// the trace prints an ordinary event's fields; header lines ("config
// backends=2 ...") carry them too.
func ParseDetails(s string) []Field { return parseDetails(s) }

// parseDetails reads details. A value may be Go-quoted or a {...} group
// holding spaces; a detail quoted whole (it held a line break) is read
// inside its quotes.
func parseDetails(s string) []Field { return splitSpaced(s, nextDetail) }

// nextDetail reads the detail s starts with.
func nextDetail(s string) (Field, string) {
	if strings.HasPrefix(s, `"`) {
		if q, ok := quotedToken(s); ok {
			u, _ := strconv.Unquote(q)
			if !lineBreakIn(u) {
				return Field{Value: u, Form: Bare, Quoted: true}, s[len(q):]
			}
			return wholeDetail(u), s[len(q):]
		}
	}
	eq := strings.IndexByte(s, '=')
	if sp := strings.IndexByte(s, ' '); eq < 0 || (sp >= 0 && sp < eq) {
		t, rest := nextToken(s)
		return Field{Value: t.value, Form: Bare, Quoted: t.quoted}, rest
	}
	t, rest := nextToken(s[eq+1:])
	return Field{Key: s[:eq], Value: t.value, Form: Pair, Quoted: t.quoted}, rest
}

// wholeDetail reads the text of a detail the trace quoted whole: key=value
// with the value to the end, or a bare value.
func wholeDetail(u string) Field {
	k, v, ok := strings.Cut(u, "=")
	if !ok {
		return Field{Value: u, Form: Bare}
	}
	if q, isQ := quotedToken(v); isQ && len(q) == len(v) {
		uv, _ := strconv.Unquote(q)
		return Field{Key: k, Value: uv, Form: Pair, Quoted: true}
	}
	return Field{Key: k, Value: v, Form: Pair}
}
