package event

import (
	"encoding/binary"
	"time"
)

// A Record is one event as the trace keeps and hashes it: the encoded
// form, which costs no formatting to write. The text line is its
// rendering (AppendText), made only when someone reads the trace; a
// passing seed of a sweep renders none.
//
// The encoding: a 4-byte little-endian length of the rest, the time since
// the trace's start in nanoseconds (a varint), then the actor, the kind
// and each detail in print order, each a uvarint length and its bytes. A
// record is the whole event, so two traces whose records are equal render
// equal lines, and a hash of the records decides what a hash of the lines
// would (and sees sub-millisecond times the text truncates).
type Record []byte

// recordLenSize is the size of a record's length prefix.
const recordLenSize = 4

// BeginRecord starts a record at the end of b: the length prefix (patched
// by EndRecord), the time, the actor and the kind. It returns b and where
// the record starts; append details with AppendRecordField.
func BeginRecord(b []byte, at time.Duration, actor, kind string) ([]byte, int) {
	start := len(b)
	b = append(b, 0, 0, 0, 0)
	b = binary.AppendVarint(b, int64(at))
	b = AppendRecordField(b, actor)
	return AppendRecordField(b, kind), start
}

// AppendRecordField appends one field (a detail) to the record being
// written.
func AppendRecordField[S string | []byte](b []byte, s S) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// EndRecord ends the record BeginRecord started at start.
func EndRecord(b []byte, start int) []byte {
	binary.LittleEndian.PutUint32(b[start:], uint32(len(b)-start-recordLenSize))
	return b
}

// NextRecord splits the first record off b, a sequence of whole records;
// ok is false at the end of b, or where what is left is not a whole
// record.
func NextRecord(b []byte) (r Record, rest []byte, ok bool) {
	if len(b) < recordLenSize {
		return nil, b, false
	}
	n := uint64(recordLenSize) + uint64(binary.LittleEndian.Uint32(b))
	if n > uint64(len(b)) {
		return nil, b, false
	}
	return Record(b[:n]), b[n:], true
}

// fields returns the record's time and its fields, still encoded (the
// actor, the kind, the details: nextField splits them).
func (r Record) fields() (at time.Duration, rest []byte) {
	if len(r) < recordLenSize {
		return 0, nil
	}
	body := r[recordLenSize:]
	v, n := binary.Varint(body)
	if n <= 0 {
		return 0, nil
	}
	return time.Duration(v), body[n:]
}

// nextField splits the first field off a record's body; a body cut
// short yields what is there and nothing after.
func nextField(b []byte) (field, rest []byte) {
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)-k) {
		return b[max(k, 0):], nil
	}
	return b[k : k+int(n)], b[k+int(n):]
}

// AppendText appends the record's trace line (no "\n"): the time offset,
// the actor, the kind and each detail, one space apart, each detail
// Go-quoted whole when it holds a line break — exactly the line
// Event.AppendText renders for the event it reads back as.
func (r Record) AppendText(dst []byte) []byte {
	at, rest := r.fields()
	if rest == nil {
		return dst
	}
	actor, rest := nextField(rest)
	kind, rest := nextField(rest)
	dst = AppendHead(dst, at, string(actor), string(kind))
	for len(rest) > 0 {
		var d []byte
		d, rest = nextField(rest)
		dst = append(dst, ' ')
		dst = AppendOneLine(dst, d)
	}
	return dst
}
