package event

import (
	"bytes"
	"strconv"
	"strings"
	"time"
)

// Event is one trace event, typed: when it happened, who did it, what kind
// of event it is and its fields, in the order the trace prints them. A trace
// line is the rendering of one Event (AppendText), and ParseEvent reads a
// line back into the Event it renders, so the text, the trace hash over it
// and everything that reads a trace agree on one model.
//
// There are two shapes of body, chosen by Kind:
//
//   - A record event (Kind KindRuntime "rt" or KindStore "store") is one call
//     from a fault wrapper's record (faults.Call.AppendTrace,
//     faults.StoreCall.AppendTrace): "#seq op [backend] key value ... flag
//     ...". Its fields are Seq ("seq"), Bare ("op", a store call's
//     "backend", an exec's quoted "command", a store call's {...} "intent"),
//     Word ("conn", "rt", "stream", "after", "fault", "err", ...) and Flag
//     ("relaunched", "eof", "armed", "not-found").
//   - Every other event has key=value details (Pair), sorted by Trace.Add,
//     and bare words (Bare: "liveness ok").
//
// At is the time since the trace's start; the text keeps whole milliseconds,
// so an Event read from a line has a whole-millisecond At. Actor is "-" for
// the driver, as printed.
type Event struct {
	At     time.Duration
	Actor  string
	Kind   string
	Fields []Field
}

// The record kinds: their bodies are fault-wrapper calls, not details.
const (
	KindRuntime = "rt"    // a runtime call (faults.Call)
	KindStore   = "store" // an intent-store call (faults.StoreCall)
)

// Form is how a field is printed.
type Form uint8

const (
	// Pair prints key=value: a detail of an ordinary event. A detail whose
	// text holds a line break is printed Go-quoted whole.
	Pair Form = iota
	// Bare prints the value alone: a bare detail ("liveness ok") or a
	// record's positional value (op, backend, command, intent).
	Bare
	// Word prints "key value": a record's named value ("conn 1").
	Word
	// Flag prints the key alone: a record's flag ("eof", "armed").
	Flag
	// Seq prints "#value": a record's sequence number.
	Seq
)

// Field is one named value of an event. Value is what the producer meant:
// when the trace prints it Go-quoted (an error text, a command), Quoted is
// set and Value holds the unquoted text. A {...} value (a cursor, an
// intent) is kept as printed; Group reads an intent's inside.
type Field struct {
	Key    string
	Value  string
	Form   Form
	Quoted bool
}

// Field returns the first field named key.
func (e Event) Field(key string) (Field, bool) {
	for _, f := range e.Fields {
		if f.Key == key {
			return f, true
		}
	}
	return Field{}, false
}

// Value returns the value of the first field named key, "" when there is
// none (a Flag's value is "" too: use Has).
func (e Event) Value(key string) string {
	f, _ := e.Field(key)
	return f.Value
}

// Has reports whether e has a field named key.
func (e Event) Has(key string) bool {
	_, ok := e.Field(key)
	return ok
}

// IsRecord reports whether e is a runtime or intent-store call.
func (e Event) IsRecord() bool { return isRecordKind(e.Kind) }

func isRecordKind(kind string) bool { return kind == KindRuntime || kind == KindStore }

// String returns the trace line of e.
func (e Event) String() string { return string(e.AppendText(nil)) }

// AppendText appends the trace line of e to b: the time offset, the actor,
// the kind and the fields, each separated by one space. An actor or kind
// that is empty, starts with a quote or holds a space or line break is
// printed Go-quoted, so that the line reads back into the same event.
func (e Event) AppendText(b []byte) []byte {
	b = AppendHead(b, e.At, e.Actor, e.Kind)
	if len(e.Fields) == 0 {
		return b
	}
	b = append(b, ' ')
	return e.appendBody(b)
}

// Body returns the fields as printed: the line after the kind.
func (e Event) Body() string { return string(e.appendBody(nil)) }

func (e Event) appendBody(b []byte) []byte {
	if !e.IsRecord() {
		for i, f := range e.Fields {
			if i > 0 {
				b = append(b, ' ')
			}
			b = f.AppendText(b)
		}
		return b
	}
	start := len(b)
	b = appendRecord(b, e.Fields)
	if hasLineBreak(b[start:]) {
		// A record line is quoted whole, as AppendOneLine does.
		body := string(b[start:])
		b = strconv.AppendQuote(b[:start], body)
	}
	return b
}

// appendRecord appends record fields, one space between them.
func appendRecord(b []byte, fields []Field) []byte {
	for i, f := range fields {
		if i > 0 {
			b = append(b, ' ')
		}
		switch f.Form {
		case Seq:
			b = append(b, '#')
			b = append(b, f.Value...)
		case Word:
			b = append(b, f.Key...)
			b = append(b, ' ')
			b = f.appendValue(b)
		case Flag:
			b = append(b, f.Key...)
		default:
			b = f.appendValue(b)
		}
	}
	return b
}

// String returns f as printed.
func (f Field) String() string { return string(f.AppendText(nil)) }

// AppendText appends f as the trace prints it. A Pair or Bare field is
// printed as a detail (key=value, or the value alone), quoted whole when it
// holds a line break; Word, Flag and Seq fields as in a record body.
func (f Field) AppendText(b []byte) []byte {
	switch f.Form {
	case Pair, Bare:
		start := len(b)
		if f.Form == Pair {
			b = append(b, f.Key...)
			b = append(b, '=')
		}
		b = f.appendValue(b)
		if hasLineBreak(b[start:]) {
			text := string(b[start:])
			b = strconv.AppendQuote(b[:start], text)
		}
		return b
	}
	return appendRecord(b, []Field{f})
}

func (f Field) appendValue(b []byte) []byte {
	if f.Quoted {
		return strconv.AppendQuote(b, f.Value)
	}
	return append(b, f.Value...)
}

// AppendHead appends the start of a trace line: the time offset (as
// AppendOffset prints it), the actor and the kind, one space between them.
// An actor or kind that would not read back as one field is Go-quoted. The
// trace writes its lines through it, so a line it prints and the rendering
// of the event read back from it agree byte for byte.
func AppendHead(b []byte, at time.Duration, actor, kind string) []byte {
	b = AppendOffset(b, at)
	b = append(b, ' ')
	b = appendHeadField(b, actor)
	b = append(b, ' ')
	return appendHeadField(b, kind)
}

// AppendOneLine appends s, Go-quoted whole when it holds a line break, so
// that a detail (or a record body) never breaks the one-line format. s must
// not share memory with b's spare capacity.
func AppendOneLine[S string | []byte](b []byte, s S) []byte {
	// Copy first, then look for a line break in the copy: the search runs
	// on bytes, whatever S is, with bytes.IndexByte's vector loop, over
	// memory the copy has just brought into the cache. A line break is
	// rare; then the copy is dropped for the quoted form.
	n := len(b)
	b = append(b, s...)
	if hasLineBreak(b[n:]) {
		return strconv.AppendQuote(b[:n], string(s))
	}
	return b
}

// hasLineBreak reports whether p holds a '\n' or '\r' (what
// bytes.ContainsAny(p, "\n\r") says, without decoding runes).
func hasLineBreak(p []byte) bool {
	return bytes.IndexByte(p, '\n') >= 0 || bytes.IndexByte(p, '\r') >= 0
}

// lineBreakIn is hasLineBreak for a string.
func lineBreakIn(s string) bool {
	return strings.IndexByte(s, '\n') >= 0 || strings.IndexByte(s, '\r') >= 0
}

// appendHeadField appends an actor or kind, quoted when it would not read
// back as one field.
func appendHeadField(b []byte, s string) []byte {
	if needsHeadQuote(s) {
		return strconv.AppendQuote(b, s)
	}
	return append(b, s...)
}

// needsHeadQuote reports whether s is empty, starts with a quote or holds a
// space or a line break.
func needsHeadQuote(s string) bool {
	if s == "" || s[0] == '"' {
		return true
	}
	for i := range len(s) {
		if c := s[i]; c == ' ' || c == '\n' || c == '\r' {
			return true
		}
	}
	return false
}
