package schedulertest

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/syncsim/syncsim/scheduler"
)

// roundTripCases are intents whose every field must come back exactly:
// absent vs present optional fields, the empty string as a real value, the
// three target shapes SPEC 1.1 tells apart, times off the second and in a
// non-UTC zone, and attempts outside the library's 1..max range (a host may
// write them; the pre-check must still see them).
func roundTripCases() []scheduler.Intent {
	zone := time.FixedZone("UTC+5:30", 5*3600+30*60)
	return []scheduler.Intent{
		{Backend: "bare", Attempt: 1, NotBefore: base},
		{Backend: "runtime", Attempt: 1, NotBefore: base, RuntimeID: scheduler.Ptr("8c6f2a9e-runtime")},
		{Backend: "empty-runtime", Attempt: 1, NotBefore: base, RuntimeID: scheduler.Ptr("")},
		{Backend: "baseline-target", Attempt: 2, NotBefore: base, TargetCursor: scheduler.Ptr(scheduler.Baseline)},
		{Backend: "empty-path-target", Attempt: 2, NotBefore: base, TargetCursor: scheduler.Ptr(scheduler.AtPath(0, ""))},
		{Backend: "path-target", Attempt: 3, NotBefore: base, TargetCursor: scheduler.Ptr(scheduler.AtPath(5, "/a"))},
		{Backend: "big-rev", Attempt: 3, NotBefore: base, TargetCursor: scheduler.Ptr(scheduler.At(math.MaxInt64))},
		{Backend: "all-fields", Attempt: 4, NotBefore: base, RuntimeID: scheduler.Ptr("r"), TargetCursor: scheduler.Ptr(scheduler.AtPath(7, "/dir/ü"))},
		{Backend: "nanos", Attempt: 1, NotBefore: time.Date(2024, 2, 29, 23, 59, 59, 999999999, time.UTC)},
		{Backend: "zone", Attempt: 1, NotBefore: base.In(zone)},
		{Backend: "zero-attempt", Attempt: 0, NotBefore: base},
		{Backend: "large-attempt", Attempt: math.MaxInt32, NotBefore: base},
	}
}

func checkRoundTrip(c *checker) {
	for _, in := range roundTripCases() {
		if c.schedule(in) {
			c.expect("round trip", in.Backend, &in)
		}
	}
}

// isolationIDs are backend ids that must not collide: case, whitespace,
// prefixes, quoting and path-like characters, non-ASCII.
func isolationIDs(opts Options) []string {
	ids := []string{"a", "A", "a ", " a", "ab", "a/b", "a\\b", "a'b", `a"b`, "a;b", "a%", "a_", "ключ", "名前", "🙂", "a\tb", "a\nb",
		// One a prefix of the next, as b1 is of b10; and long ids that
		// differ only past 64, 80 or 255 bytes, where a store that cuts
		// its keys merges them.
		"b1", "b10", "b100",
		strings.Repeat("k", 100) + "1", strings.Repeat("k", 100) + "2",
		strings.Repeat("k", 300) + "1", strings.Repeat("k", 300) + "2"}
	if !opts.NoEmptyBackend {
		ids = append(ids, "")
	}
	return ids
}

// checkBackendsIsolated: each backend id is its own key; clearing one
// leaves the others.
func checkBackendsIsolated(c *checker) {
	ids := isolationIDs(c.opts)
	want := make(map[string]scheduler.Intent, len(ids))
	for i, id := range ids {
		in := intent(id, i+1)
		if c.schedule(in) {
			want[id] = in
		}
	}
	for _, id := range ids {
		if in, ok := want[id]; ok {
			c.expect("after scheduling every id", id, &in)
		}
	}
	victim := ids[0]
	c.clear(victim)
	c.expect(fmt.Sprintf("after Clear(%q)", victim), victim, nil)
	for _, id := range ids[1:] {
		if in, ok := want[id]; ok {
			c.expect(fmt.Sprintf("after Clear(%q)", victim), id, &in)
		}
	}
}

// checkNoAliasing: the store keeps its own copy. Changing the caller's
// pointers after Schedule, or the pointers of a returned intent, must not
// change what the next Get returns.
func checkNoAliasing(c *checker) {
	in := scheduler.Intent{Backend: "a", Attempt: 1, NotBefore: base,
		RuntimeID: scheduler.Ptr("r1"), TargetCursor: scheduler.Ptr(scheduler.AtPath(5, "/a"))}
	want := in.Clone()
	if !c.schedule(in) {
		return
	}
	*in.RuntimeID = "mutated by caller"
	in.TargetCursor.Rev = 99
	c.expect("after the caller mutated its intent", "a", &want)

	got, ok, err := c.s.Get(c.ctx, "a")
	if err != nil || !ok || got.RuntimeID == nil || got.TargetCursor == nil {
		return // expect above has reported it
	}
	*got.RuntimeID = "mutated by reader"
	got.TargetCursor.Path = "/mutated"
	c.expect("after a reader mutated a returned intent", "a", &want)

	if l, ok := c.lister(); ok {
		list, err := l.List(c.ctx)
		if err == nil && len(list) == 1 && list[0].RuntimeID != nil {
			*list[0].RuntimeID = "mutated by lister"
			c.expect("after a reader mutated a listed intent", "a", &want)
		}
	}
}
