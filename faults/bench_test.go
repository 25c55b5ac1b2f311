package faults

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/syncsim/syncsim/scheduler"
)

var benchSink string

// BenchmarkCallString renders the record's most common call shapes.
func BenchmarkCallString(b *testing.B) {
	calls := []Call{
		{Seq: 41, Actor: "#12.exec.b1", Op: OpStreamNext, Conn: 3, RuntimeID: "b1-rt1", HasRuntimeID: true, Stream: 7,
			Entry: scheduler.Ptr(scheduler.AtPath(7, "/out/3-2")), Entries: 3},
		{Seq: 40, Actor: "#12.exec.b1", Op: OpFetch, Conn: 3, RuntimeID: "b1-rt1", HasRuntimeID: true, Stream: 7,
			After: scheduler.At(4), CurrentCursor: scheduler.At(7), AppliedPushCursor: scheduler.Baseline, CurrentRev: 7},
		{Seq: 39, Actor: "#12.exec.b1", Op: OpExec, Conn: 3, RuntimeID: "b1-rt1", HasRuntimeID: true, Stream: 6, Command: "write 3"},
		{Seq: 42, Actor: "#12.exec.b1", Op: OpPush, Conn: 3, Fault: TransportPreDispatch, Err: "injected transport-pre-dispatch: x"},
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		benchSink = calls[i%len(calls)].String()
	}
}

// BenchmarkStoreCallString renders a schedule call with its intent.
func BenchmarkStoreCallString(b *testing.B) {
	in := scheduler.Intent{Backend: "b1", Attempt: 2, NotBefore: time.Date(2026, 1, 1, 0, 0, 3, 0, time.UTC),
		RuntimeID: scheduler.Ptr("b1-rt1"), TargetCursor: scheduler.Ptr(scheduler.At(9))}
	c := StoreCall{Seq: 5, Actor: "#3.retry.b1", Op: StoreOpSchedule, Backend: "b1", Intent: &in}
	b.ReportAllocs()
	for b.Loop() {
		benchSink = c.String()
	}
}

// callStringFmt is Call.String as it was written with fmt: the reference
// AppendText must reproduce byte for byte (trace hashes depend on it).
func callStringFmt(c Call) string {
	var b strings.Builder
	fmt.Fprintf(&b, "#%d %s %s conn %d", c.Seq, c.Actor, c.Op, c.Conn)
	if c.Conn != 0 {
		if c.HasRuntimeID {
			fmt.Fprintf(&b, " rt %s", c.RuntimeID)
		} else {
			b.WriteString(" rt none")
		}
	}
	if c.Stream != 0 {
		fmt.Fprintf(&b, " stream %d", c.Stream)
	}
	switch c.Op {
	case OpConnect:
		if c.Relaunched {
			b.WriteString(" relaunched")
		}
	case OpFetch:
		fmt.Fprintf(&b, " after %s", c.After)
		if c.Through != nil {
			fmt.Fprintf(&b, " through %s", *c.Through)
		}
		if c.Err == "" {
			fmt.Fprintf(&b, " current %s appliedPush %s rev %d", c.CurrentCursor, c.AppliedPushCursor, c.CurrentRev)
		}
	case OpStreamNext:
		if c.Entry != nil {
			fmt.Fprintf(&b, " entry %s", *c.Entry)
		}
		fmt.Fprintf(&b, " served %d", c.Entries)
		if c.EOF {
			b.WriteString(" eof")
		}
	case OpWatermarks:
		fmt.Fprintf(&b, " settle %t", c.Settle)
		if c.Err == "" {
			fmt.Fprintf(&b, " rev %d", c.CurrentRev)
		}
	case OpPush:
		fmt.Fprintf(&b, " sender %s changes %d", c.Sender, c.Changes)
		if c.Err == "" || c.Fault == TransportPostDispatch {
			fmt.Fprintf(&b, " applied %d appliedPush %s rev %d", c.Applied, c.AppliedPushCursor, c.CurrentRev)
		}
	case OpExec:
		fmt.Fprintf(&b, " %q", c.Command)
	case OpEventNext:
		if c.EOF {
			b.WriteString(" eof")
		} else if c.Err == "" {
			fmt.Fprintf(&b, " served %d", c.Entries)
		}
	}
	if c.Fault != NoFault {
		fmt.Fprintf(&b, " fault %s", c.Fault)
	}
	if c.Err != "" {
		fmt.Fprintf(&b, " err %q", c.Err)
	}
	return b.String()
}

func TestCallStringMatchesFmt(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	ops := []Op{OpConnect, OpRuntimeID, OpFetch, OpStreamNext, OpStreamClose, OpWatermarks, OpPush, OpExec, OpEventNext, OpEventClose, OpClose}
	strs := []string{"", "b1-rt2", "/out/3-2", "päth \"q\"\n\t\x00", "injected crash: container exited"}
	pick := func() string { return strs[r.IntN(len(strs))] }
	cur := func() scheduler.Cursor {
		if r.IntN(2) == 0 {
			return scheduler.At(r.Int64N(100) - 1)
		}
		return scheduler.AtPath(r.Int64N(100), pick())
	}
	for range 20000 {
		c := Call{
			Seq: r.IntN(1000), Actor: pick(), Op: ops[r.IntN(len(ops))], Conn: r.IntN(3), RuntimeID: pick(),
			HasRuntimeID: r.IntN(2) == 0, Stream: r.IntN(3), After: cur(), Settle: r.IntN(2) == 0,
			Command: pick(), Sender: cur(), Changes: r.IntN(5), CurrentCursor: cur(), AppliedPushCursor: cur(),
			CurrentRev: r.Int64N(50), Entries: r.IntN(5), EOF: r.IntN(2) == 0, Applied: r.IntN(5),
			ExitCode: r.IntN(3), Relaunched: r.IntN(2) == 0, Fault: Kind(r.IntN(int(kindEnd) + 1)), Err: pick(),
		}
		if r.IntN(2) == 0 {
			c.Through = scheduler.Ptr(cur())
		}
		if r.IntN(2) == 0 {
			c.Entry = scheduler.Ptr(cur())
		}
		if got, want := c.String(), callStringFmt(c); got != want {
			t.Fatalf("Call.String differs from the fmt reference:\n got %q\nwant %q", got, want)
		}
	}
}

// storeCallStringFmt is StoreCall.String as it was written with fmt.
func storeCallStringFmt(sc StoreCall) string {
	var b strings.Builder
	fmt.Fprintf(&b, "#%d %s store-%s %s", sc.Seq, sc.Actor, sc.Op, sc.Backend)
	if sc.Op == StoreOpGet && sc.Err == "" && !sc.Found {
		b.WriteString(" not-found")
	}
	if sc.Intent != nil {
		fmt.Fprintf(&b, " %s", sc.Intent)
	}
	if sc.Fault != NoFault {
		fmt.Fprintf(&b, " fault %s", sc.Fault)
	}
	if sc.Err != "" {
		fmt.Fprintf(&b, " err %q", sc.Err)
	}
	return b.String()
}

func TestStoreCallStringMatchesFmt(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	ops := []StoreOp{StoreOpGet, StoreOpSchedule, StoreOpClear}
	strs := []string{"", "b1", "b1-rt2", "päth \"q\"\n", "injected store-get: x"}
	pick := func() string { return strs[r.IntN(len(strs))] }
	for range 20000 {
		sc := StoreCall{Seq: r.IntN(100), Actor: pick(), Op: ops[r.IntN(len(ops))], Backend: pick(),
			Found: r.IntN(2) == 0, Fault: Kind(r.IntN(int(kindEnd) + 1)), Err: pick()}
		if r.IntN(3) > 0 {
			in := scheduler.Intent{Backend: pick(), Attempt: r.IntN(7) - 1,
				NotBefore: time.UnixMilli(r.Int64N(1<<42) - 1<<40).Add(time.Duration(r.IntN(1e6)))}
			if r.IntN(2) == 0 {
				in.RuntimeID = scheduler.Ptr(pick())
			}
			if r.IntN(2) == 0 {
				in.TargetCursor = scheduler.Ptr(scheduler.AtPath(r.Int64N(9), pick()))
			}
			sc.Intent = &in
		}
		if got, want := sc.String(), storeCallStringFmt(sc); got != want {
			t.Fatalf("StoreCall.String differs from the fmt reference:\n got %q\nwant %q", got, want)
		}
	}
}

// TestAppendQuotedIsStrconv: the short way gives strconv's quoting for
// every byte value around the printable range, alone and in a field, and
// QuotesAsIs says so only where strconv leaves the text as it is.
func TestAppendQuotedIsStrconv(t *testing.T) {
	// Beyond the first 256 code points: printable and not (format
	// characters, separators, private use), astral, U+FFFD written out and
	// as an invalid byte, and the texts the planters write.
	wide := []string{"⟦SIMKEEP1⟧", "\U0001F4E6", "\uFFFD", "\xff", "\xe2\x9f", "\u200b", "\u2028", "\u00a0", "\ue000",
		"\U0010FFFF", "\u0378", "日本語", PastCutPadding(), "Bearer\u200bk1 token=x"}
	for _, w := range wide {
		for _, s := range []string{w, "a" + w + "b", "\"" + w, w + "\\"} {
			if got, want := string(appendQuoted(nil, s)), strconv.Quote(s); got != want {
				t.Fatalf("appendQuoted(%q) = %s, want %s", s, got, want)
			}
			if QuotesAsIs(s) != (strconv.Quote(s) == `"`+s+`"`) {
				t.Fatalf("QuotesAsIs(%q) = %t, but strconv quotes it as %s", s, QuotesAsIs(s), strconv.Quote(s))
			}
		}
	}
	for c := range 256 {
		for _, s := range []string{string(rune(c)), "a" + string([]byte{byte(c)}) + "b", "/out/1-" + string(rune(c))} {
			if got, want := string(appendQuoted(nil, s)), strconv.Quote(s); got != want {
				t.Fatalf("appendQuoted(%q) = %s, want %s", s, got, want)
			}
			if QuotesAsIs(s) != (strconv.Quote(s) == `"`+s+`"`) {
				t.Fatalf("QuotesAsIs(%q) = %t, but strconv quotes it as %s", s, QuotesAsIs(s), strconv.Quote(s))
			}
		}
	}
}

// BenchmarkPadded is one big write's file (the generator's sizes run 600
// KiB to 1.6 MiB).
func BenchmarkPadded(b *testing.B) {
	b.SetBytes(1 << 20)
	for b.Loop() {
		padded("p1 exec 3 file 0\n", 1<<20)
	}
}
