package event

import (
	"strings"
	"testing"
	"time"
)

// A record renders exactly the line its event prints (the head, then each
// detail one space apart, Go-quoted whole when it holds a line break), and
// that line reads back.
func TestRecordRendersTheLine(t *testing.T) {
	for _, tc := range []struct {
		at          time.Duration
		actor, kind string
		details     []string
	}{
		{0, "-", "start", nil},
		{1500 * time.Millisecond, "#1.exec.b0", "exec-result", []string{"status=complete", "applied=2"}},
		{12*time.Second + 345*time.Millisecond + 678, "#2.pull.b1", "pull-result", []string{"err=line one\nline two"}},
		{time.Hour, "-", "liveness", []string{"ok", ""}},
		{3 * time.Millisecond, "#3.retry.b0", "rt", []string{`#4 fetch b0 conn 1 err "x"`}},
	} {
		b, start := BeginRecord([]byte("prefix"), tc.at, tc.actor, tc.kind)
		for _, d := range tc.details {
			b = AppendRecordField(b, d)
		}
		b = EndRecord(b, start)
		r, rest, ok := NextRecord(b[start:])
		if !ok || len(rest) != 0 {
			t.Fatalf("%s: NextRecord = %t with %d bytes left, want the whole record", tc.kind, ok, len(rest))
		}
		want := AppendHead(nil, tc.at, tc.actor, tc.kind)
		for _, d := range tc.details {
			want = AppendOneLine(append(want, ' '), d)
		}
		if got := string(r.AppendText(nil)); got != string(want) {
			t.Errorf("rendered %q, want %q", got, want)
		}
		if _, err := ParseEvent(string(want)); err != nil {
			t.Errorf("%q does not read back: %v", want, err)
		}
	}
}

// Records follow each other; a cut one is not read, and a body cut short
// renders what is there without a panic.
func TestNextRecordStopsAtACutRecord(t *testing.T) {
	var b []byte
	for i, kind := range []string{"a", "b", "c"} {
		var start int
		b, start = BeginRecord(b, time.Duration(i)*time.Second, "-", kind)
		b = EndRecord(AppendRecordField(b, strings.Repeat("x", i)), start)
	}
	var kinds []string
	for r, rest, ok := NextRecord(b); ok; r, rest, ok = NextRecord(rest) {
		kinds = append(kinds, strings.Fields(string(r.AppendText(nil)))[2])
	}
	if strings.Join(kinds, ",") != "a,b,c" {
		t.Fatalf("read %v, want a,b,c", kinds)
	}
	read := 0
	for _, rest, ok := NextRecord(b[:len(b)-1]); ok; _, rest, ok = NextRecord(rest) {
		read++
	}
	if read != 2 {
		t.Fatalf("read %d records of a sequence whose third is cut, want 2", read)
	}
	r, _, _ := NextRecord(b)
	cut := Record(append([]byte{99, 0, 0, 0}, r[4:]...)) // a length past the body
	if got := string(cut.AppendText(nil)); !strings.Contains(got, " a") {
		t.Fatalf("a record cut short rendered %q, want what is there", got)
	}
}
