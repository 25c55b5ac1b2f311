package sim

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/syncsim/syncsim/sim/event"
)

var traceStart = time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)

func TestTraceLineFormat(t *testing.T) {
	tr := NewTrace(traceStart)
	tr.Header("seed 7")
	tr.Add(traceStart.Add(12345*time.Millisecond+999*time.Microsecond), "exec-1", "pull", "rev=3", "backend=a")
	tr.Add(traceStart, "", "alarm")
	tr.Add(traceStart.Add(-1500*time.Millisecond), "x", "early")
	tr.Add(traceStart.Add(123456789*time.Second), "x", "late", "msg=two\nlines")
	want := []string{
		"seed 7",
		"+0000012.345 exec-1 pull backend=a rev=3",
		"+0000000.000 - alarm",
		"-0000001.500 x early",
		`+123456789.000 x late "msg=two\nlines"`,
	}
	if got := tr.Lines(); !slices.Equal(got, want) {
		t.Errorf("Lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if tr.Len() != 4 || tr.Dropped() != 0 {
		t.Errorf("Len, Dropped = %d, %d; want 4, 0", tr.Len(), tr.Dropped())
	}
}

func TestTraceDetailsSortedNotMutated(t *testing.T) {
	tr := NewTrace(traceStart)
	details := []string{"z=1", "a=2", "m=3"}
	tr.Add(traceStart, "a", "e", details...)
	if !slices.Equal(details, []string{"z=1", "a=2", "m=3"}) {
		t.Errorf("Add reordered the caller's details: %v", details)
	}
	if got := tr.Lines()[0]; got != "+0000000.000 a e a=2 m=3 z=1" {
		t.Errorf("line = %q", got)
	}
}

func TestTraceHash(t *testing.T) {
	tr := NewTrace(traceStart)
	tr.Header("profile crash=0.1")
	tr.Add(traceStart.Add(time.Second), "a", "x", "k=v")
	tr.Add(traceStart.Add(2*time.Second), "b", "y")
	// The hash is SHA-256 over the header lines, "\n"-terminated, and then
	// every event's record (event.BeginRecord) in order.
	want := []byte("profile crash=0.1\n")
	want, start := event.BeginRecord(want, time.Second, "a", "x")
	want = event.EndRecord(event.AppendRecordField(want, "k=v"), start)
	want, start = event.BeginRecord(want, 2*time.Second, "b", "y")
	want = event.EndRecord(want, start)
	sum := sha256.Sum256(want)
	if got, want := tr.Hash(), hex.EncodeToString(sum[:]); got != want {
		t.Errorf("Hash = %s, want SHA-256 of the header lines and the records %s", got, want)
	}
	// Deterministic: the same events give the same hash; any change moves it.
	again := NewTrace(traceStart)
	again.Header("profile crash=0.1")
	again.Add(traceStart.Add(time.Second), "a", "x", "k=v")
	again.Add(traceStart.Add(2*time.Second), "b", "y")
	if again.Hash() != tr.Hash() {
		t.Error("same events, different hash")
	}
	again.Add(traceStart.Add(2*time.Second), "b", "y")
	if again.Hash() == tr.Hash() {
		t.Error("hash did not change with an extra line")
	}
}

func TestTraceHeaderAfterAddPanics(t *testing.T) {
	tr := NewTrace(traceStart)
	tr.Add(traceStart, "a", "x")
	defer func() {
		if recover() == nil {
			t.Error("Header after Add did not panic")
		}
	}()
	tr.Header("late")
}

// TestTraceKeep: only the last n lines stay in memory, the hash still covers
// all, and it equals the hash of a trace that kept everything.
func TestTraceKeep(t *testing.T) {
	full, kept := NewTrace(traceStart), NewTrace(traceStart)
	kept.Keep(3)
	for _, tr := range []*Trace{full, kept} {
		tr.Header("h")
		for i := range 10 {
			tr.Add(traceStart.Add(time.Duration(i)*time.Second), "a", "e")
		}
	}
	if full.Hash() != kept.Hash() {
		t.Error("Keep changed the hash")
	}
	want := append([]string{"h"}, full.Lines()[8:]...)
	if got := kept.Lines(); !slices.Equal(got, want) {
		t.Errorf("kept Lines = %q, want %q", got, want)
	}
	hashOnly := NewTrace(traceStart)
	hashOnly.Keep(0)
	hashOnly.Header("h")
	for i := range 10 {
		hashOnly.Add(traceStart.Add(time.Duration(i)*time.Second), "a", "e")
	}
	if hashOnly.Hash() != full.Hash() || !slices.Equal(hashOnly.Lines(), []string{"h"}) || hashOnly.Dropped() != 10 {
		t.Errorf("Keep(0): hash %v, lines %q, dropped %d", hashOnly.Hash() == full.Hash(), hashOnly.Lines(), hashOnly.Dropped())
	}
	if kept.Len() != 10 || kept.Dropped() != 7 {
		t.Errorf("Len, Dropped = %d, %d; want 10, 7", kept.Len(), kept.Dropped())
	}
	var sb strings.Builder
	if _, err := kept.WriteTo(&sb); err != nil {
		t.Fatal(err)
	}
	wantText := "h\n... 7 earlier lines not kept\n" + strings.Join(want[1:], "\n") +
		"\ntrace-hash " + full.Hash() + " lines=11\n"
	if sb.String() != wantText {
		t.Errorf("WriteTo:\n%s\nwant:\n%s", sb.String(), wantText)
	}
}

func TestFirstDiff(t *testing.T) {
	cases := []struct {
		a, b   []string
		i      int
		la, lb string
		differ bool
	}{
		{[]string{"x", "y"}, []string{"x", "y"}, 0, "", "", false},
		{nil, nil, 0, "", "", false},
		{[]string{"x", "y", "z"}, []string{"x", "q", "z"}, 1, "y", "q", true},
		{[]string{"x"}, []string{"x", "y"}, 1, "", "y", true},
		{[]string{"x", "y"}, []string{"x"}, 1, "y", "", true},
	}
	for _, c := range cases {
		i, la, lb, d := FirstDiff(c.a, c.b)
		if i != c.i || la != c.la || lb != c.lb || d != c.differ {
			t.Errorf("FirstDiff(%q, %q) = %d %q %q %v, want %d %q %q %v",
				c.a, c.b, i, la, lb, d, c.i, c.la, c.lb, c.differ)
		}
	}
}

func BenchmarkTraceAdd(b *testing.B) {
	tr := NewTrace(traceStart)
	tr.Keep(1024)
	at := traceStart.Add(1234567 * time.Millisecond)
	b.ReportAllocs()
	for range b.N {
		tr.Add(at, "exec-12", "backend.pull", "backend=b2", "rev=118", "cursor=117")
	}
}

// TestTraceUnreadHoldsLinesEvenWhenNotKept: a watched trace hands out
// every event written since the last Unread, once, even with Keep(0) and
// across hash flushes that drop the records no one keeps.
func TestTraceUnreadHoldsLinesEvenWhenNotKept(t *testing.T) {
	tr := NewTrace(Epoch)
	tr.Keep(0)
	tr.Add(Epoch, "a", "ev", "k=before")
	if got := tr.Unread(); got != nil {
		t.Fatalf("Unread before Watch = %q, want nil", got)
	}
	tr.Watch()
	tr.addDetailBytes(Epoch, "b", "rt", []byte(`err "x MARK1 y"`))
	tr.Add(Epoch, "c", "ev", "k=v")
	got := unreadLines(tr)
	if len(got) != 2 || !strings.Contains(got[0], "MARK1") || strings.Contains(strings.Join(got, "\n"), "before") {
		t.Fatalf("Unread() = %q; want the two events since Watch", got)
	}
	if got := tr.Unread(); len(got) != 0 {
		t.Fatalf("second Unread() = %q; want nothing new", got)
	}
	for i := range 20000 { // many hash batches
		tr.Add(Epoch, "d", "ev", "n="+strconv.Itoa(i))
	}
	got = unreadLines(tr)
	if n := len(got); n != 20000 || !strings.HasSuffix(got[n-1], "n=19999") {
		t.Fatalf("Unread() after 20000 events holds %d (the last %q)", n, got[max(0, n-1):])
	}
}

// unreadLines renders the records tr.Unread hands out.
func unreadLines(tr *Trace) []string {
	var lines []string
	for r, rest, ok := event.NextRecord(tr.Unread()); ok; r, rest, ok = event.NextRecord(rest) {
		lines = append(lines, string(r.AppendText(nil)))
	}
	return lines
}

// TestTraceKeepSlotsOfChangingLength: ring slots cut from one slab take
// later lines longer and shorter than the first, without one slot writing
// over its neighbour; and the hash, fed in batches, is the same however
// many batches the records span and whatever is kept.
func TestTraceKeepSlotsOfChangingLength(t *testing.T) {
	full, kept := NewTrace(traceStart), NewTrace(traceStart)
	kept.Keep(5)
	for _, tr := range []*Trace{full, kept} {
		tr.Header("h")
		for i := range 4000 { // past several hash batches
			tr.Add(traceStart, "a", "e", "k="+strings.Repeat("x", (i*7)%23))
		}
	}
	want := append([]string{"h"}, full.Lines()[len(full.Lines())-5:]...)
	if got := kept.Lines(); !slices.Equal(got, want) {
		t.Errorf("kept Lines = %q, want %q", got, want)
	}
	hashOnly := NewTrace(traceStart)
	hashOnly.Keep(0)
	hashOnly.Header("h")
	for i := range 4000 {
		hashOnly.Add(traceStart, "a", "e", "k="+strings.Repeat("x", (i*7)%23))
	}
	if got := full.Hash(); kept.Hash() != got || hashOnly.Hash() != got {
		t.Errorf("hash %s, kept %s, hash only %s: want one hash however many batches and whatever is kept", got, kept.Hash(), hashOnly.Hash())
	}
}

// TestTraceRingKeepsLinesOfAnyLength: a bounded trace keeps the last lines
// exactly whatever their lengths.
func TestTraceRingKeepsLinesOfAnyLength(t *testing.T) {
	tr := NewTrace(time.Unix(0, 0))
	tr.Keep(3)
	var want []string
	for i := range 40 {
		detail := "d=" + strings.Repeat("x", (i*37)%90)
		tr.Add(time.Unix(int64(i), 0), "a", "k", detail)
		want = append(want, detail)
	}
	got := tr.Lines()
	if len(got) != 3 {
		t.Fatalf("kept %d lines, want 3", len(got))
	}
	for i, l := range got {
		if !strings.HasSuffix(l, " "+want[37+i]) {
			t.Errorf("line %d = %q, want it to end with %q", i, l, want[37+i])
		}
	}
}

// TestTraceKeepAcrossFlushes: a bounded trace keeps its last lines where it
// wrote them and moves them only when a flush finds them a small part of its
// buffer. Whatever the lines' lengths (some longer than a hash batch), the
// bound and the moment of reading (Hash flushes at once), the kept lines are
// the last ones added and the hash is the full trace's.
func TestTraceKeepAcrossFlushes(t *testing.T) {
	for _, keep := range []int{1, 2, 5, 64, 300} {
		full, kept := NewTrace(traceStart), NewTrace(traceStart)
		kept.Keep(keep)
		for _, tr := range []*Trace{full, kept} {
			tr.Header("h")
		}
		for i := range 3000 {
			n := (i * 131) % 97
			if i%211 == 0 {
				n = 3 * hashBatch // one line longer than a batch
			}
			for _, tr := range []*Trace{full, kept} {
				tr.Add(traceStart.Add(time.Duration(i)*time.Millisecond), "a", "e", "k="+strings.Repeat("y", n))
			}
			if i%97 == 0 || i%500 == 499 {
				if kept.Hash() != full.Hash() {
					t.Fatalf("keep %d, line %d: hash differs from the full trace's", keep, i)
				}
				all := full.Lines()
				want := append([]string{"h"}, all[max(1, len(all)-keep):]...)
				if got := kept.Lines(); !slices.Equal(got, want) {
					t.Fatalf("keep %d, line %d: kept %d lines, want the last %d (first differs: %v)", keep, i, len(got)-1, len(want)-1, firstDiffers(got, want))
				}
			}
		}
		if kept.Dropped() != 3000-keep {
			t.Errorf("keep %d: Dropped = %d, want %d", keep, kept.Dropped(), 3000-keep)
		}
	}
}

func firstDiffers(a, b []string) int {
	i, _, _, _ := FirstDiff(a, b)
	return i
}
