package sim

import (
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/syncsim/syncsim/sim/event"
)

// TestTraceEventsReadBackOddText adds lines whose actor, kind and details
// need quoting and checks that Events reads back what Lines prints.
func TestTraceEventsReadBackOddText(t *testing.T) {
	tr := NewTrace(traceStart)
	tr.Header("seed 1")
	at := traceStart.Add(2500*time.Millisecond + 999*time.Microsecond)
	tr.Add(at, "", "host-start", "n=1")
	tr.Add(at, "a b", "two words", `k=v`, `msg=two`+"\n"+`lines`, "bare\nword", `q="x y"`, "", "=v")
	tr.Add(at, `"quoted"`, "rt", "#1 exec conn 1 rt r\nid stream 1 \"x\\ny\"")
	tr.Add(at, "x", "", "odd={unclosed", "g={a b} c")
	tr.addDetailBytes(at, "#2.exec.b0", event.KindStore, []byte("#2 store-get b\n0 not-found"))
	lines, events := tr.Lines()[1:], tr.Events()
	if len(events) != len(lines) {
		t.Fatalf("%d events for %d lines", len(events), len(lines))
	}
	for i, e := range events {
		if e.String() != lines[i] {
			t.Errorf("event %d renders\n%s\nnot\n%s", i, e.String(), lines[i])
		}
		if again, err := event.ParseEvent(e.String()); err != nil || !reflect.DeepEqual(again, e) {
			t.Errorf("event %d does not read back: %v\n%+v\n%+v", i, err, again, e)
		}
	}
	if e := events[1]; e.Actor != "a b" || e.Kind != "two words" || e.Value("msg") != "two\nlines" || e.Value("q") != "x y" {
		t.Errorf("odd details read as %+v", e.Fields)
	}
	if e := events[2]; e.Actor != `"quoted"` || e.Value("rt") != "r\nid" || e.Value("command") != "x\ny" {
		t.Errorf("quoted record read as %+v", e.Fields)
	}
	if e := events[4]; e.Value("backend") != "b\n0" || !e.Has("not-found") {
		t.Errorf("store record read as %+v", e.Fields)
	}
	if got := events[0].At; got != 2500*time.Millisecond {
		t.Errorf("At = %v, want the printed millisecond", got)
	}
	if got := tr.Headers(); !slices.Equal(got, []string{"seed 1"}) {
		t.Errorf("Headers = %q", got)
	}
}

func TestTraceEventsWithKeep(t *testing.T) {
	tr := NewTrace(traceStart)
	tr.Keep(2)
	for i := range 5 {
		tr.Add(traceStart.Add(time.Duration(i)*time.Second), "a", "tick", "i="+itoa(i))
	}
	var got []string
	for _, e := range tr.Events() {
		got = append(got, e.Value("i"))
	}
	if !slices.Equal(got, []string{"3", "4"}) {
		t.Errorf("kept events %v, want the last two", got)
	}
}
