package sim

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/sim/history"
)

// The intent-store probe, the local store probe's twin (host_storeprobe.go)
// for the intent store. A run holds a handful of intents at once (rarely
// more than five), every backend id is one of the run's, no two of them
// share a long prefix, no runtime id is ever empty, and the workspace
// never clears a backend it holds no intent for. A store wrong only past
// those (a table of five rows, a key cut to 64 bytes, a Clear that is a
// prefix delete, an empty runtime id read back as none, a replacement
// dropped unless it is due later) passes every run. So at the first start
// of a probing seed, on the bare store, the host schedules, replaces, gets,
// clears and lists intents on backends of its own, with those inputs, and
// records every answer beside what it wrote there, for the model family's
// checker to hold to that table (intent-table); at the
// end it clears what it wrote and the store must list none of it. It draws
// from its own stream and makes no trace line, so the rest of the run is
// the same with or without it. A store that sets the host alarm itself
// (AlarmOwner) is not probed: its Schedule has an effect outside the table.

// intentProbeCalls is how many calls one probe makes before it clears up.
const intentProbeCalls = 64

// intentProbeIDs are the probe's backend ids: more than a run ever holds at
// once, ids that are prefixes of others, ids that differ only in case or
// only after their first 64 bytes, and non-ASCII ones. None is a workspace
// backend's (every one starts with the probe's prefix).
var intentProbeIDs = func() []string {
	const p = "syncsim-intent-probe"
	long := p + "-" + strings.Repeat("x", 80)
	ids := []string{p, p + "-", p + "-A", p + "-a", long + "1", long + "2", p + "-ü", p + "-日本"}
	for i := range 40 {
		ids = append(ids, p+"-"+strconv.Itoa(i))
	}
	return ids
}()

// probeIntentStore runs the probe on store, the bare intent store.
func (h *Host) probeIntentStore(store scheduler.Scheduler) {
	if _, owns := store.(AlarmOwner); owns {
		return
	}
	lister, _ := store.(scheduler.Lister)
	r := Stream(h.cfg.Seed, "intent-probe")
	ctx := context.Background()
	table := map[string]scheduler.Intent{} // what the store was told
	t0 := h.clock.Now()
	read := func(p *history.IntentProbe) {
		h.appendEvent(history.Event{Kind: history.IntentProbed, IntentProbe: p})
	}
	storeErr := func(op, backend string, err error) {
		h.storeFailed(&storeError{store: "intent store", op: op, backend: backend, actor: "host", err: err.Error()})
	}
	check := func(call string) {
		if lister == nil {
			return
		}
		all, err := lister.List(ctx)
		if err != nil {
			storeErr("list", "", err)
			return
		}
		var got []scheduler.Intent
		for _, in := range all {
			if strings.HasPrefix(in.Backend, "syncsim-intent-probe") {
				got = append(got, in)
			}
		}
		want := make([]scheduler.Intent, 0, len(table))
		for _, id := range slices.Sorted(maps.Keys(table)) {
			want = append(want, table[id])
		}
		read(&history.IntentProbe{Call: call + ", then list", Want: want, Got: got, List: true,
			Sorted: slices.IsSortedFunc(all, func(a, b scheduler.Intent) int { return strings.Compare(a.Backend, b.Backend) })})
	}
	for n := range intentProbeCalls {
		if h.violated != nil {
			return
		}
		id := intentProbeIDs[r.IntN(len(intentProbeIDs))]
		switch k := r.IntN(10); {
		case k < 5:
			in := probeIntent(r, id, t0, table)
			if err := store.Schedule(ctx, faults.CopyIntent(in)); err != nil {
				storeErr("schedule", id, err)
				return
			}
			table[id] = in
		case k < 7:
			if err := store.Clear(ctx, id); err != nil {
				storeErr("clear", id, err)
				return
			}
			delete(table, id)
		default:
			got, ok, err := store.Get(ctx, id)
			if err != nil {
				storeErr("get", id, err)
				return
			}
			p := &history.IntentProbe{Call: "get " + strconv.Quote(id), Found: ok}
			if want, has := table[id]; has {
				p.Has, p.Want = true, []scheduler.Intent{want}
			}
			if ok {
				p.Got = []scheduler.Intent{got}
			}
			read(p)
		}
		if n%8 == 7 {
			check(fmt.Sprintf("call %d", n+1))
		}
	}
	for _, id := range slices.Sorted(maps.Keys(table)) {
		if h.violated != nil {
			return
		}
		if err := store.Clear(ctx, id); err != nil {
			storeErr("clear", id, err)
			return
		}
		delete(table, id)
	}
	if h.violated == nil {
		check("every probe backend cleared")
	}
}

// probeIntent draws a valid intent for id: an attempt anywhere in the
// type's range, a NotBefore around the clock's start with nanoseconds or
// years from it, each optional field absent, present, or (runtime) empty.
// One time in four it replaces the stored intent with one due no later.
func probeIntent(r *rand.Rand, id string, t0 time.Time, table map[string]scheduler.Intent) scheduler.Intent {
	in := scheduler.Intent{Backend: id, Attempt: 1 + r.IntN(8)}
	switch r.IntN(8) {
	case 0:
		in.Attempt = int(^uint(0) >> 1) // the type's limit
	case 1:
		in.Attempt = 1 << (31 + r.IntN(2)) // past 32 bits
	}
	in.NotBefore = t0.Add(time.Duration(r.Int64N(int64(48 * time.Hour))))
	switch r.IntN(6) {
	case 0:
		// Far out, but inside the nanosecond Unix range (years 1678 to
		// 2262) a store may rightly keep instants in.
		in.NotBefore = t0.AddDate(1+r.IntN(200), 0, 0).Add(time.Duration(r.Int64N(int64(time.Second))))
	case 1:
		in.NotBefore = t0.AddDate(-r.IntN(50), 0, 0)
	}
	if old, ok := table[id]; ok && r.IntN(4) == 0 {
		in.NotBefore = old.NotBefore.Add(-time.Duration(r.Int64N(int64(time.Hour))))
	}
	switch r.IntN(4) {
	case 0:
		empty := ""
		in.RuntimeID = &empty
	case 1, 2:
		rt := fmt.Sprintf("runtime-%d", r.IntN(1000))
		in.RuntimeID = &rt
	}
	switch r.IntN(3) {
	case 0:
		c := scheduler.At(r.Int64N(1 << 53))
		in.TargetCursor = &c
	case 1:
		c := scheduler.AtPath(r.Int64N(1<<20), "/probe/"+strconv.Itoa(r.IntN(9)))
		in.TargetCursor = &c
	}
	return in
}
