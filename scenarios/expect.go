package scenarios

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Observe prints what a corpus file expects of a run: a compact, stable
// summary read from the run's trace (never from cmp output, whose format is
// deliberately unstable). Times print as the trace prints them (sim.Offset:
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
	for _, line := range r.Trace.Lines() {
		at, actor, event, rest, ok := splitTraceLine(line)
		if !ok {
			continue // a header line
		}
		prefix := at + " " + actor + " "
		switch event {
		case "exec-result":
			b.WriteString(prefix + "exec " + orderDetails(rest) + "\n")
		case "retry-result":
			b.WriteString(prefix + "retry " + orderDetails(rest) + "\n")
		case "store":
			if s, ok := observeStore(rest, table); ok {
				b.WriteString(prefix + s + "\n")
			}
		case "host-restart":
			b.WriteString(at + " host-restart " + rest + "\n")
		case "liveness":
			if rest == "faults=off" {
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

// splitTraceLine splits "+0000001.000 actor event rest" and returns the
// time as milliseconds since the trace's start.
func splitTraceLine(line string) (at, actor, event, rest string, ok bool) {
	if !strings.HasPrefix(line, "+") {
		return "", "", "", "", false
	}
	fields := strings.SplitN(line, " ", 4)
	if len(fields) < 3 {
		return "", "", "", "", false
	}
	secs, frac, found := strings.Cut(fields[0][1:], ".")
	_, err1 := strconv.ParseUint(secs, 10, 64)
	_, err2 := strconv.ParseUint(frac, 10, 64)
	if !found || err1 != nil || err2 != nil {
		return "", "", "", "", false
	}
	if len(fields) == 4 {
		rest = fields[3]
	}
	return fields[0], fields[1], fields[2], rest, true
}

// detailOrder is the order result details are printed in: the verdict
// first, the error (long) last. Keys not listed follow, sorted.
var detailOrder = []string{"status", "sync", "exit", "rejected", "attempt", "notBefore", "applied", "cursor", "target", "runtime", "error"}

// orderDetails reorders a result's key=value details (the trace sorts them
// by key).
func orderDetails(rest string) string {
	kvs := splitDetails(rest)
	rank := func(k string) int {
		if i := slices.Index(detailOrder, k); i >= 0 {
			return i
		}
		return len(detailOrder)
	}
	slices.SortStableFunc(kvs, func(a, b [2]string) int { return rank(a[0]) - rank(b[0]) })
	parts := make([]string, len(kvs))
	for i, kv := range kvs {
		v := kv[1]
		if kv[0] == "" {
			parts[i] = v
		} else {
			parts[i] = kv[0] + "=" + v
		}
	}
	return strings.Join(parts, " ")
}

// splitDetails splits "k=v k=\"quoted value\"" into pairs, keeping quoted
// values whole. A field without "=" comes back with an empty key.
func splitDetails(s string) [][2]string {
	var out [][2]string
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimSpace(s) {
		end := strings.IndexAny(s, " =")
		if end < 0 || s[end] == ' ' {
			if end < 0 {
				end = len(s)
			}
			out = append(out, [2]string{"", s[:end]})
			s = s[end:]
			continue
		}
		key := s[:end]
		s = s[end+1:]
		val, quoted := s, false
		if strings.HasPrefix(s, `"`) {
			if q, err := strconv.QuotedPrefix(s); err == nil {
				val, quoted = q, true
			}
		}
		if sp := strings.IndexByte(s, ' '); !quoted && sp >= 0 {
			val = s[:sp]
		}
		out = append(out, [2]string{key, val})
		s = s[len(val):]
	}
	return out
}

// storeCallRe reads faults.StoreCall.AppendTrace: "#seq store-op backend
// [not-found] [intent] [fault kind] [err "..."]".
var storeCallRe = regexp.MustCompile(`^#\d+ store-(get|schedule|clear) (\S+)( not-found)?( \{.*\})?( fault (\S+))?( err .*)?$`)

// intentRe reads an intent as the trace prints it (faults.AppendIntent with
// NotBefore as sim.Offset).
var intentRe = regexp.MustCompile(`^\{backend (\S+)(?: runtime (\S*))?(?: target (\{-?\d+,(?:null|"(?:[^"\\]|\\.)*")\}))? attempt (-?\d+) notBefore ([+-]\d+\.\d+)\}$`)

// observeStore turns one store trace line into a summary line and keeps
// table (backend -> rendered intent) up to date. Successful gets are not
// printed: they change nothing.
func observeStore(call string, table map[string]string) (string, bool) {
	m := storeCallRe.FindStringSubmatch(call)
	if m == nil {
		return "store " + call, true
	}
	op, backend, intent, fault, errText := m[1], m[2], strings.TrimSpace(m[4]), m[6], m[7]
	if fault != "" || errText != "" {
		s := op + " " + backend + " failed"
		if fault != "" {
			s += "=" + fault
		}
		return s, true
	}
	switch op {
	case "schedule":
		in := renderIntent(intent)
		table[backend] = in
		return "schedule " + in, true
	case "clear":
		delete(table, backend)
		return "clear " + backend, true
	}
	return "", false
}

// renderIntent rewrites "{backend b0 runtime r target {2,null} attempt 1
// notBefore +0000001.000}" as "b0 runtime=r target={2,null} attempt=1
// notBefore=+0000001.000".
func renderIntent(s string) string {
	idx := intentRe.FindStringSubmatchIndex(s)
	if idx == nil {
		return s
	}
	m := intentRe.FindStringSubmatch(s)
	out := m[1]
	if idx[4] >= 0 { // the runtime group matched, possibly an empty id
		out += " runtime=" + m[2]
	}
	if m[3] != "" {
		out += " target=" + m[3]
	}
	out += " attempt=" + m[4]
	return out + " notBefore=" + m[5]
}
