package faults

import (
	"strings"
	"testing"

	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/workspace"
)

func TestArmedCheck(t *testing.T) {
	for _, tc := range []struct {
		a    Armed
		want string // "" for valid
	}{
		{Armed{Kind: TransportMidStream, On: SiteStream, After: 256}, ""},
		{Armed{Kind: TransportPostDispatch, On: SiteFetch}, ""},
		{Armed{Kind: SettleFailure, On: SiteSettle}, ""},
		{Armed{Kind: Crash, On: SiteConnect}, ""},
		{Armed{Kind: Restart, On: SiteEvents, After: 1}, ""},
		{Armed{Kind: LostIdentity, On: SitePush}, ""},
		{Armed{Kind: TransportConnect, On: SiteFetch}, "only on connect"},
		{Armed{Kind: SettleFailure, On: SiteWatermarks}, "only on settle"},
		{Armed{Kind: TransportMidStream, On: SiteFetch}, "only on stream events"},
		{Armed{Kind: StoreGet, On: SiteFetch}, "cannot be armed at a call"},
		{Armed{Kind: TruncatedLog, On: SiteFetch}, "cannot be armed at a call"},
		{Armed{Kind: TransportPostDispatch, On: SiteFetch, After: 1}, "after= applies to on=stream and on=events only"},
		{Armed{Kind: TransportMidStream, On: SiteStream, After: -1}, "out of range"},
		{Armed{Kind: Crash, On: "nowhere"}, "unknown call site"},
	} {
		err := tc.a.Check()
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s: Check() = %v, want %q", tc.a, err, tc.want)
		}
	}
}

// TestArmConsumesNoDraws: a container with an armed fault that never
// fires makes exactly the random decisions of one without.
func TestArmConsumesNoDraws(t *testing.T) {
	record := func(arm bool) string {
		c := newContainer(AllOn(), 7)
		if arm {
			if err := c.Arm(Armed{Kind: SettleFailure, On: SiteSettle}); err != nil {
				t.Fatal(err)
			}
		}
		for range 20 {
			h, err := c.Connect(ctx)
			if err != nil {
				continue
			}
			if es, err := h.Exec(ctx, "write 2"); err == nil {
				for err == nil {
					_, err = es.Next(ctx)
				}
			}
			if env, err := h.Sync().FetchChanges(ctx, workspace.FetchRequest{}); err == nil {
				for err == nil {
					_, err = env.Changes.Next(ctx)
				}
			}
		}
		var b strings.Builder
		for _, call := range c.recordAll() {
			b.WriteString(call.String() + "\n")
		}
		return b.String()
	}
	if a, b := record(false), record(true); a != b {
		t.Fatalf("an unfired arm changed the record:\n%s\nvs\n%s", a, b)
	}
}

func TestArmFiresOnceInOrder(t *testing.T) {
	c := newContainer(Off(), 1)
	h := mustConnect(t, c)
	for _, a := range []Armed{{Kind: TransportPostDispatch, On: SiteFetch}, {Kind: TransportPostDispatch, On: SiteFetch}} {
		if err := c.Arm(a); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 2 {
		_, err := h.Sync().FetchChanges(ctx, workspace.FetchRequest{})
		checkInjected(t, err, TransportPostDispatch)
		if rec := c.recordAll(); !rec[len(rec)-1].Armed || !strings.HasSuffix(rec[len(rec)-1].String(), `fault transport-post-dispatch armed err "injected transport-post-dispatch: websocket closed after the call was dispatched"`) {
			t.Errorf("fetch %d: record %s", i, rec[len(rec)-1])
		}
		h = mustConnect(t, c)
	}
	if _, err := h.Sync().FetchChanges(ctx, workspace.FetchRequest{}); err != nil {
		t.Fatalf("third fetch: %v", err)
	}
	if left := c.armedFaults(); len(left) != 0 {
		t.Fatalf("armed faults left: %v", left)
	}
}

func TestArmStreamAfter(t *testing.T) {
	for _, tc := range []struct{ after, served int }{{0, 0}, {3, 3}, {5, 5}, {9, 5}} {
		c := newContainer(Off(), 1)
		h := mustConnect(t, c)
		run(t, h, "write 5")
		if err := c.Arm(Armed{Kind: TransportMidStream, On: SiteStream, After: tc.after}); err != nil {
			t.Fatal(err)
		}
		env, err := h.Sync().FetchChanges(ctx, workspace.FetchRequest{})
		if err != nil {
			t.Fatal(err)
		}
		served := 0
		for {
			if _, err = env.Changes.Next(ctx); err != nil {
				break
			}
			served++
		}
		checkInjected(t, err, TransportMidStream)
		pr, _ := c.lastPull("-")
		if served != tc.served || pr.StreamFault != TransportMidStream || pr.Entries != tc.served {
			t.Errorf("after=%d: served %d, pull %+v", tc.after, served, pr)
		}
		// One-shot: the next stream ends cleanly.
		h = mustConnect(t, c)
		got, _ := drain(t, h, scheduler.Baseline, nil)
		if len(got) != 5 {
			t.Errorf("after=%d: next stream served %d", tc.after, len(got))
		}
	}
}

func TestArmEvents(t *testing.T) {
	c := newContainer(Off(), 1)
	h := mustConnect(t, c)
	if err := c.Arm(Armed{Kind: TransportMidStream, On: SiteEvents, After: 1}); err != nil {
		t.Fatal(err)
	}
	es, err := h.Exec(ctx, "true")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := es.Next(ctx); err != nil {
		t.Fatalf("first event: %v", err)
	}
	_, err = es.Next(ctx)
	checkInjected(t, err, TransportMidStream)
}

func TestArmCrashAtFetch(t *testing.T) {
	c := newContainer(Off(), 1)
	h := mustConnect(t, c)
	run(t, h, "write 1")
	if err := c.Arm(Armed{Kind: Crash, On: SiteFetch}); err != nil {
		t.Fatal(err)
	}
	_, err := h.Sync().FetchChanges(ctx, workspace.FetchRequest{})
	checkInjected(t, err, Crash)
	if !strings.Contains(err.Error(), "container exited") || !workspace.IsTransportFailure(err) {
		t.Fatalf("crash at fetch: %v", err)
	}
	if c.alive() {
		t.Fatal("container alive after an armed crash")
	}
	// Crash(0): the next connect relaunches a new runtime with an empty log.
	h = mustConnect(t, c)
	if id, _ := h.RuntimeID(); id != "b1-rt2" || len(c.Files()) != 0 {
		t.Fatalf("after relaunch: runtime %s files %v", id, c.Files())
	}
}

func TestArmLostIdentityProceeds(t *testing.T) {
	c := newContainer(Off(), 1)
	h := mustConnect(t, c)
	if err := c.Arm(Armed{Kind: LostIdentity, On: SiteExec}); err != nil {
		t.Fatal(err)
	}
	if code := run(t, h, "true"); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if id, _ := h.RuntimeID(); id != "b1-rt1" {
		t.Fatalf("open connection re-learnt its id: %s", id)
	}
	if id, _ := c.RuntimeID(); id != "b1-rt2" {
		t.Fatalf("new connections report %s", id)
	}
	var exec Call
	for _, call := range c.recordAll() {
		if call.Op == OpExec {
			exec = call
		}
	}
	if exec.Fault != LostIdentity || !exec.Armed || exec.Err != "" {
		t.Fatalf("exec record %s", exec)
	}
}

func TestArmWaitsWhileFaultsOff(t *testing.T) {
	c := newContainer(Off(), 1)
	if err := c.Arm(Armed{Kind: TransportConnect, On: SiteConnect}); err != nil {
		t.Fatal(err)
	}
	c.SetFaults(false)
	mustConnect(t, c)
	c.SetFaults(true)
	_, err := c.Connect(ctx)
	checkInjected(t, err, TransportConnect)
}
