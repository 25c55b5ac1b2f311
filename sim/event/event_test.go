package event

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/scheduler"
)

// fieldsOf is a compact view of fields for comparisons: key, form letter,
// value, and "q" when quoted.
func fieldsOf(fs []Field) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		q := ""
		if f.Quoted {
			q = " q"
		}
		out[i] = f.Key + " " + "PBWFS"[f.Form:f.Form+1] + " " + f.Value + q
	}
	return out
}

func mustParse(t *testing.T, line string) Event {
	t.Helper()
	e, err := ParseEvent(line)
	if err != nil {
		t.Fatalf("ParseEvent(%q): %v", line, err)
	}
	if got := e.String(); got != line {
		t.Fatalf("rendering differs from the line:\n got %s\nwant %s", got, line)
	}
	return e
}

func TestParseEventDetails(t *testing.T) {
	e := mustParse(t, `+0000003.600 #5.exec.b0 exec-result error="pull failed: a \"b\" c" exit=0 sync=pending target={4,"/a b"}`)
	if e.At != 3600*time.Millisecond || e.Actor != "#5.exec.b0" || e.Kind != "exec-result" || e.IsRecord() {
		t.Fatalf("head: %+v", e)
	}
	want := []string{`error P pull failed: a "b" c q`, "exit P 0", "sync P pending", `target P {4,"/a b"}`}
	if got := fieldsOf(e.Fields); !slices.Equal(got, want) {
		t.Errorf("fields:\n got %q\nwant %q", got, want)
	}
	if e.Value("sync") != "pending" || !e.Has("exit") || e.Has("status") || e.Value("status") != "" {
		t.Error("Value/Has disagree with the fields")
	}
	if got := e.Body(); got != `error="pull failed: a \"b\" c" exit=0 sync=pending target={4,"/a b"}` {
		t.Errorf("Body = %s", got)
	}

	bare := mustParse(t, "-0000001.500 - liveness ok")
	if bare.At != -1500*time.Millisecond || bare.Actor != "-" || !slices.Equal(fieldsOf(bare.Fields), []string{" B ok"}) {
		t.Errorf("bare detail: %q", fieldsOf(bare.Fields))
	}
	plant := mustParse(t, `+0000001.000 - plant intent={backend b1 runtime  target {2,"/x}"} attempt 5 notBefore +0000165.800}`)
	in, ok := plant.Fields[0].Group()
	wantIn := []string{"backend W b1", "runtime W ", `target W {2,"/x}"}`, "attempt W 5", "notBefore W +0000165.800"}
	if !ok || !slices.Equal(fieldsOf(in), wantIn) {
		t.Errorf("intent group (%v):\n got %q\nwant %q", ok, fieldsOf(in), wantIn)
	}
	if _, ok := (Field{Value: "{open"}).Group(); ok {
		t.Error("an unclosed group read as one")
	}
	none := mustParse(t, "+0000000.000 - alarm-cancel")
	if len(none.Fields) != 0 {
		t.Errorf("fields of a line without any: %q", fieldsOf(none.Fields))
	}
}

// TestParseEventRecords renders every op of the runtime's and the store's
// record with every optional part (faults.Call.AppendTrace and
// faults.StoreCall.AppendTrace, as the host prints them) and checks the
// event names each part: the record grammar the parser knows (its flag
// words, its positional values) is the faults package's.
func TestParseEventRecords(t *testing.T) {
	cur := func(rev int64, path string) scheduler.Cursor {
		return scheduler.Cursor{Rev: rev, Path: path, HasPath: path != ""}
	}
	through, entry := cur(7, "/a b"), cur(3, "")
	base := faults.Call{Seq: 12, Conn: 2, RuntimeID: "b0-rt3", HasRuntimeID: true, Stream: 4}
	with := func(f func(*faults.Call)) faults.Call { c := base; f(&c); return c }
	cases := []struct {
		call faults.Call
		want []string
	}{
		{with(func(c *faults.Call) { c.Op, c.Stream, c.Relaunched = faults.OpConnect, 0, true }),
			[]string{"seq S 12", "op B connect", "conn W 2", "rt W b0-rt3", "relaunched F "}},
		{with(func(c *faults.Call) {
			c.Op, c.Conn = faults.OpConnect, 0
			c.Fault, c.Armed, c.Err = faults.TransportConnect, true, "boom"
		}),
			[]string{"seq S 12", "op B connect", "conn W 0", "stream W 4", "fault W transport-connect", "armed F ", "err W boom q"}},
		{with(func(c *faults.Call) {
			c.Op, c.After, c.Through, c.CurrentCursor, c.AppliedPushCursor, c.CurrentRev = faults.OpFetch, cur(1, ""), &through, cur(9, "/z"), cur(2, ""), 9
		}), []string{"seq S 12", "op B fetch", "conn W 2", "rt W b0-rt3", "stream W 4", "after W {1,null}", `through W {7,"/a b"}`, `current W {9,"/z"}`, "appliedPush W {2,null}", "rev W 9"}},
		{with(func(c *faults.Call) {
			c.Op, c.Entry, c.Entries, c.EOF, c.HasRuntimeID = faults.OpStreamNext, &entry, 3, true, false
		}),
			[]string{"seq S 12", "op B stream-next", "conn W 2", "rt W none", "stream W 4", "entry W {3,null}", "served W 3", "eof F "}},
		{with(func(c *faults.Call) { c.Op, c.Settle, c.CurrentRev = faults.OpWatermarks, true, 5 }),
			[]string{"seq S 12", "op B watermarks", "conn W 2", "rt W b0-rt3", "stream W 4", "settle W true", "rev W 5"}},
		{with(func(c *faults.Call) {
			c.Op, c.Sender, c.Changes, c.Applied, c.AppliedPushCursor, c.CurrentRev = faults.OpPush, cur(4, ""), 2, 1, cur(4, "/p"), 6
		}), []string{"seq S 12", "op B push", "conn W 2", "rt W b0-rt3", "stream W 4", "sender W {4,null}", "changes W 2", "applied W 1", `appliedPush W {4,"/p"}`, "rev W 6"}},
		{with(func(c *faults.Call) { c.Op, c.Command, c.RuntimeID = faults.OpExec, "write 1; exit 49", "" }),
			[]string{"seq S 12", "op B exec", "conn W 2", "rt W ", "stream W 4", "command B write 1; exit 49 q"}},
		{with(func(c *faults.Call) { c.Op, c.EOF = faults.OpEventNext, true }),
			[]string{"seq S 12", "op B event-next", "conn W 2", "rt W b0-rt3", "stream W 4", "eof F "}},
		{with(func(c *faults.Call) { c.Op, c.Entries = faults.OpEventNext, 2 }),
			[]string{"seq S 12", "op B event-next", "conn W 2", "rt W b0-rt3", "stream W 4", "served W 2"}},
	}
	for _, c := range cases {
		line := "+0000001.000 #1.exec.b0 rt " + string(c.call.AppendTrace(nil))
		e := mustParse(t, line)
		if got := fieldsOf(e.Fields); !slices.Equal(got, c.want) || !e.IsRecord() {
			t.Errorf("%s:\n got %q\nwant %q", line, got, c.want)
		}
	}

	epoch := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(b []byte, tm time.Time) []byte { return AppendOffset(b, tm.Sub(epoch)) }
	in := scheduler.Intent{Backend: "b1", RuntimeID: scheduler.Ptr("b1-rt1"), TargetCursor: &through, Attempt: 2, NotBefore: epoch.Add(1500 * time.Millisecond)}
	stores := []struct {
		call faults.StoreCall
		want []string
	}{
		{faults.StoreCall{Seq: 3, Op: faults.StoreOpGet, Backend: "b1"}, []string{"seq S 3", "op B store-get", "backend B b1", "not-found F "}},
		{faults.StoreCall{Seq: 4, Op: faults.StoreOpSchedule, Backend: "b1", Intent: &in},
			[]string{"seq S 4", "op B store-schedule", "backend B b1", `intent B {backend b1 runtime b1-rt1 target {7,"/a b"} attempt 2 notBefore +0000001.500}`}},
		{faults.StoreCall{Seq: 5, Op: faults.StoreOpClear, Backend: "b1", Fault: faults.StoreClear, Err: "injected"},
			[]string{"seq S 5", "op B store-clear", "backend B b1", "fault W store-clear", "err W injected q"}},
	}
	for _, c := range stores {
		line := "+0000001.000 #1.exec.b1 store " + string(c.call.AppendTrace(nil, at))
		e := mustParse(t, line)
		if got := fieldsOf(e.Fields); !slices.Equal(got, c.want) {
			t.Errorf("%s:\n got %q\nwant %q", line, got, c.want)
		}
	}
}

func TestParseEventRefusesWhatNoEventRenders(t *testing.T) {
	for _, line := range []string{
		"", "seed 4", "profile crash=0.1", "trace-hash 00ff lines=3", "... 4 earlier lines not kept",
		"+0000001.000", "+0000001.000 actor", "+0000001.000 actor ", "+12.3 - x", "+0000001.5 - x",
		"-0000000.000 - x", "+00000001.000 - x", "+0000001.000  x", `+0000001.000 "a" x`, `+0000001.000 "a b x`,
		"+0000001.000 - x k=two\nlines", "+99999999999.000 - x",
	} {
		if e, err := ParseEvent(line); err == nil || !errors.Is(err, ErrNotEvent) {
			t.Errorf("ParseEvent(%q) = %+v, %v; want an ErrNotEvent", line, e, err)
		}
	}
}

// FuzzParseEvent: the parser never panics, and a line it accepts renders
// back byte for byte and reads back into the same event.
func FuzzParseEvent(f *testing.F) {
	for _, s := range []string{
		`+0000003.600 #5.exec.b0 exec-result error="a \"b\" c" exit=0 sync=pending`,
		`+0000034.200 #11.exec.b1 store #10 store-schedule b1 {backend b1 runtime  target {4,"/a b"} attempt 2 notBefore +0000035.200}`,
		`+0000003.100 #3.exec.b1 rt #16 stream-next conn 2 rt b1-rt1 stream 2 served 1 fault transport-mid-stream armed err "x"`,
		`+0000000.000 #1.exec.b0 rt #5 exec conn 1 rt b1-rt1 stream 1 "write 1; exit 49"`,
		`+0000001.000 "a b" "c\nd" "k=v\nw" =x  {a b} "q"`,
		`-0000001.500 - rt "#1 op k\nv"`,
		"+0000000.000 - liveness ok",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		e, err := ParseEvent(line)
		if err != nil {
			if !errors.Is(err, ErrNotEvent) {
				t.Fatalf("error %v does not wrap ErrNotEvent", err)
			}
			return
		}
		out := e.String()
		if out != line {
			t.Fatalf("rendering differs:\n in %q\nout %q", line, out)
		}
		again, err := ParseEvent(out)
		if err != nil || !reflect.DeepEqual(again, e) {
			t.Fatalf("does not read back (%v):\n%#v\n%#v", err, e, again)
		}
		for _, fl := range e.Fields {
			fl.Group() // must not panic
		}
	})
}

func TestEventFormsRenderAlone(t *testing.T) {
	for _, c := range []struct {
		f    Field
		want string
	}{
		{Field{Key: "k", Value: "v"}, "k=v"},
		{Field{Key: "k", Value: "a\nb"}, `"k=a\nb"`},
		{Field{Value: "ok", Form: Bare}, "ok"},
		{Field{Key: "err", Value: `a "b"`, Form: Word, Quoted: true}, `err "a \"b\""`},
		{Field{Key: "eof", Form: Flag}, "eof"},
		{Field{Key: "seq", Value: "7", Form: Seq}, "#7"},
	} {
		if got := c.f.String(); got != c.want {
			t.Errorf("%+v renders %s, want %s", c.f, got, c.want)
		}
	}
	if strings.Contains(Event{Kind: "x", Actor: ""}.String(), " - ") {
		t.Error("an empty actor renders as the driver's '-': it would read back as another event")
	}
}
