package scenarios

import (
	"slices"
	"strconv"
	"strings"

	"github.com/syncsim/syncsim/sim/event"
)

// Observe prints what a corpus file expects of a run: a compact, stable
// summary read from the run's trace (never from cmp output, whose format is
// deliberately unstable). Times print as the trace prints them (event.Offset:
// seconds since the run's start, fixed width), so "advance 5s" first
// reproduces the SPEC's "now = 5000" as +0000005.000.
//
//	+0000001.000 #1.exec.b0 exec error="injected transport-mid-stream: ..."
//	+0000001.000 #1.exec.b0 schedule b0 runtime=b0-rt1 attempt=1 notBefore=+0000001.100
//	+0000001.000 #2.retry.b0 retry status=pending attempt=2 notBefore=+0000001.150 runtime=b0-rt1 error="..."
//	intents after ops:
//	  b0 runtime=b0-rt1 attempt=2 notBefore=+0000001.150
//	liveness:
//	+0000001.150 #3.alarm.b0 clear b0
//	+0000001.150 #3.alarm.b0 retry status=complete applied=0
//	intents at end: none
//	ok
//	trace-hash 5f0c…
//
// One line per exec and retry result in completion order (an actor named
// "#n.alarm.bK" is the host's alarm, "#n.tail.bK" the liveness tail), and
// one per intent-store mutation: every successful schedule (its intent) and
// clear, and every store call that failed by an injected fault. Host
// restarts get a line. The intent table is printed when the ops are done
// and again at the end of the run (after the fault-free liveness tail when
// it ran). Then "ok" or "violation <property>" and, last, the trace hash,
// which pins the whole trace byte for byte.
//
// The intent table is rebuilt from the store lines of the trace: what the
// store was told to hold. A store that forgets at host restart (the
// forgetful-scheduler bug) shows its loss as the violation that follows,
// not in the table.
func Observe(r Result) string {
	var b strings.Builder
	if r.Trace == nil {
		b.WriteString("no trace\n")
		writeVerdict(&b, r)
		return b.String()
	}
	table := map[string]string{}
	inTail := false
	if d := r.Trace.Dropped(); d > 0 {
		b.WriteString("... " + strconv.Itoa(d) + " earlier trace lines not kept: the table below misses what they did\n")
	}
	for _, e := range r.Trace.Events() {
		at := event.Offset(e.At)
		prefix := at + " " + e.Actor + " "
		switch e.Kind {
		case "exec-result":
			b.WriteString(prefix + "exec " + orderDetails(e.Fields) + "\n")
		case "retry-result":
			b.WriteString(prefix + "retry " + orderDetails(e.Fields) + "\n")
		case event.KindStore:
			if s, ok := observeStore(e, table); ok {
				b.WriteString(prefix + s + "\n")
			}
		case "host-restart":
			b.WriteString(at + " host-restart " + e.Body() + "\n")
		case "liveness":
			if e.Value("faults") == "off" {
				writeTable(&b, "intents after ops:", table)
				b.WriteString("liveness:\n")
				inTail = true
			}
		}
	}
	if inTail || r.Violation == nil {
		writeTable(&b, "intents at end:", table)
	} else {
		writeTable(&b, "intents after ops:", table)
	}
	writeVerdict(&b, r)
	return b.String()
}

func writeVerdict(b *strings.Builder, r Result) {
	if r.Violation != nil {
		b.WriteString("violation " + r.Violation.Property + "\n")
	} else {
		b.WriteString("ok\n")
	}
	b.WriteString("trace-hash " + r.Hash + "\n")
}

// ExpectedProperty returns the property an expected block says the run
// violates, from its "violation <property>" line.
func ExpectedProperty(expected string) (string, bool) {
	for _, l := range strings.Split(expected, "\n") {
		if p, ok := strings.CutPrefix(l, "violation "); ok {
			return strings.TrimSpace(p), true
		}
	}
	return "", false
}

func writeTable(b *strings.Builder, title string, table map[string]string) {
	if len(table) == 0 {
		b.WriteString(title + " none\n")
		return
	}
	b.WriteString(title + "\n")
	keys := make([]string, 0, len(table))
	for k := range table {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		b.WriteString("  " + table[k] + "\n")
	}
}

// detailOrder is the order result details are printed in: the verdict
// first, the error (long) last. Keys not listed follow, sorted.
var detailOrder = []string{"status", "sync", "exit", "rejected", "attempt", "notBefore", "applied", "cursor", "target", "runtime", "error"}

// orderDetails prints a result's details in detailOrder (the trace sorts
// them by key), each as the trace prints it.
func orderDetails(fields []event.Field) string {
	rank := func(k string) int {
		if i := slices.Index(detailOrder, k); i >= 0 {
			return i
		}
		return len(detailOrder)
	}
	sorted := slices.Clone(fields)
	slices.SortStableFunc(sorted, func(a, b event.Field) int { return rank(a.Key) - rank(b.Key) })
	parts := make([]string, len(sorted))
	for i, f := range sorted {
		parts[i] = f.String()
	}
	return strings.Join(parts, " ")
}

// observeStore turns one store call into a summary line and keeps table
// (backend -> rendered intent) up to date. Successful gets are not
// printed: they change nothing.
func observeStore(e event.Event, table map[string]string) (string, bool) {
	op, isStore := strings.CutPrefix(e.Value("op"), "store-")
	backend, hasBackend := e.Field("backend")
	if !isStore || !hasBackend || (op != "get" && op != "schedule" && op != "clear") {
		return "store " + e.Body(), true
	}
	if fault := e.Value("fault"); fault != "" || e.Has("err") {
		s := op + " " + backend.Value + " failed"
		if fault != "" {
			s += "=" + fault
		}
		return s, true
	}
	switch op {
	case "schedule":
		in, _ := e.Field("intent")
		text := renderIntent(in)
		table[backend.Value] = text
		return "schedule " + text, true
	case "clear":
		delete(table, backend.Value)
		return "clear " + backend.Value, true
	}
	return "", false
}

// renderIntent rewrites the intent "{backend b0 runtime r target {2,null}
// attempt 1 notBefore +0000001.000}" as "b0 runtime=r target={2,null}
// attempt=1 notBefore=+0000001.000"; a value that is not an intent is
// printed as it is.
func renderIntent(in event.Field) string {
	fields, ok := in.Group()
	if !ok || len(fields) == 0 || fields[0].Key != "backend" || fields[0].Form != event.Word {
		return in.Value
	}
	out := fields[0].Value
	for _, f := range fields[1:] {
		out += " " + f.Key + "=" + f.Value
	}
	return out
}
