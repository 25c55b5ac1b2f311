package main

import (
	"cmp"
	"fmt"
	"html/template"
	"io"
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"github.com/syncsim/syncsim/scenarios"
	"github.com/syncsim/syncsim/sim"
	"github.com/syncsim/syncsim/sim/event"
)

// renderExplainHTML writes one self-contained HTML page (inline CSS and
// script, nothing fetched) that shows the run r of scenario s as a
// timeline: a lane per backend and one for the host, virtual time across.
// The same s and r always give the same bytes.
func renderExplainHTML(w io.Writer, s scenarios.Scenario, r scenarios.Result) error {
	return explainTemplate.Execute(w, buildExplainPage(s, r))
}

// explainPage is what the template renders.
type explainPage struct {
	Title     string
	Seed      uint64
	Profile   string
	Config    []string // "key value" facts about the run's shape
	Ops       []string
	Steps     int // scenarios.Steps of the ops: the count every report prints
	Hash      string
	Stats     []string
	Violation *explainViolation
	Headers   []string
	Dropped   int // event lines the trace did not keep
	Lines     []explainLine
	Data      explainData // the timeline, drawn by the page's script
}

// explainLine is one event line of the trace listing.
type explainLine struct {
	No    int
	Raw   string
	Class string
}

type explainViolation struct {
	Property, Detail, At string
	Line                 int // trace line number, 0 when not kept
}

// explainData is the laid-out timeline: the page's script only draws it.
type explainData struct {
	Width  int      `json:"width"`
	Height int      `json:"height"`
	Lanes  []exLane `json:"lanes"`
	Ticks  []exTick `json:"ticks"`
	Items  []exItem `json:"items"`
}

type exLane struct {
	Name string  `json:"name"`
	Host bool    `json:"host"`
	Y    int     `json:"y"`
	H    int     `json:"h"`
	Rows []exRow `json:"rows"`
}

type exRow struct {
	Name string `json:"name"`
	Y    int    `json:"y"`
}

type exTick struct {
	X     int    `json:"x"`
	Label string `json:"label,omitempty"`
	Extra bool   `json:"extra,omitempty"` // a time no line happened at (a due time)
}

// exItem is one mark. Shape is bar (X..X2), tri, dot, sq, dia, cross, tick
// or vline (across every lane). Kind holds the CSS classes.
type exItem struct {
	Kind  string `json:"k"`
	Shape string `json:"s"`
	X     int    `json:"x"`
	X2    int    `json:"x2,omitempty"`
	Y     int    `json:"y"`
	Label string `json:"l,omitempty"`
	// NX is the x of the next mark on the same row (0: none); the page
	// shows a label only where it fits before NX: a point's after the
	// point, a bar's inside it or, when the bar is too short, after it
	// (cut short with "…" if need be, never dropped).
	NX    int    `json:"nx,omitempty"`
	Tip   string `json:"t"`
	Lines []int  `json:"n,omitempty"`

	lane  int
	track string
	sub   int
}

// Layout constants, in pixels.
const (
	exTop       = 62 // the axis band above the lanes
	exRowH      = 18
	exLaneGap   = 8
	exLeft      = 24
	exRight     = 320
	wPoint      = 16
	wEnd        = 8
	wOther      = 2
	exMinBar    = 6
	exGapBase   = 14
	exGapPerLog = 36
	exGapMax    = 420
)

// Tracks of a lane, top to bottom.
var (
	backendTracks = []string{"ops", "pulls", "intent", "faults"}
	hostTracks    = []string{"alarm", "host"}
)

func buildExplainPage(s scenarios.Scenario, r scenarios.Result) explainPage {
	p := explainPage{
		Title:   fmt.Sprintf("syncsim explain: seed %d", s.Seed),
		Seed:    s.Seed,
		Profile: s.Profile.String(),
		Hash:    r.Hash,
	}
	var events []event.Event
	if r.Trace != nil {
		p.Headers, events = r.Trace.Headers(), r.Trace.Events()
		p.Dropped = r.Trace.Dropped()
		if p.Hash == "" {
			p.Hash = r.Trace.Hash()
		}
	}
	var lines []tline
	for j, e := range events {
		l := newTline(len(p.Headers)+p.Dropped+j+1, e)
		lines = append(lines, l)
		p.Lines = append(p.Lines, explainLine{No: l.no, Raw: l.raw, Class: listClass(&l)})
	}
	p.Config = explainConfig(s, p.Headers)
	p.Steps = scenarios.Steps(s.Ops)
	for _, op := range s.Ops {
		p.Ops = append(p.Ops, op.String())
	}
	p.Stats = explainStats(r.Stats)
	if v := r.Violation; v != nil {
		p.Violation = &explainViolation{Property: v.Property, Detail: v.Detail, At: fmtMS(v.At.Milliseconds())}
		for i := len(lines) - 1; i >= 0; i-- {
			if lines[i].event == "violation" {
				p.Violation.Line = lines[i].no
				break
			}
		}
	}
	p.Data = layoutExplain(s, lines, r.Violation, maxAttempts(s, p.Headers))
	return p
}

func explainConfig(s scenarios.Scenario, headers []string) []string {
	var out []string
	for _, h := range headers {
		if rest, ok := strings.CutPrefix(h, "config "); ok {
			out = append(out, rest)
		}
	}
	c := s.Config
	bug := c.Bug
	if bug == "" {
		bug = "none (the correct code)"
	}
	out = append(out, "scheduler="+c.Scheduler, "bug="+bug)
	if c.MaxEntries > 0 {
		out = append(out, "max-entries="+strconv.Itoa(c.MaxEntries))
	}
	out = append(out, "steps="+strconv.Itoa(scenarios.Steps(s.Ops)))
	return out
}

func explainStats(st sim.Stats) []string {
	out := []string{
		"steps run " + strconv.Itoa(st.Steps),
		"events " + strconv.Itoa(st.Events),
		"host starts " + strconv.Itoa(st.HostStarts),
		"virtual time " + event.Offset(st.SimDuration),
	}
	for _, m := range []struct {
		name string
		m    map[string]int
	}{{"faults", st.Faults}, {"exec sync", st.ExecSync}, {"retry", st.Retry}} {
		keys := make([]string, 0, len(m.m))
		for k := range m.m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		var parts []string
		for _, k := range keys {
			parts = append(parts, k+"="+strconv.Itoa(m.m[k]))
		}
		if len(parts) > 0 {
			out = append(out, m.name+": "+strings.Join(parts, " "))
		}
	}
	return out
}

// maxAttempts is the run's attempt limit: from the trace's config header,
// else the scenario's retry options, else the workspace default.
func maxAttempts(s scenarios.Scenario, headers []string) int {
	for _, h := range headers {
		if rest, ok := strings.CutPrefix(h, "config "); ok {
			for _, d := range event.ParseDetails(rest) {
				if n, err := strconv.Atoi(d.Value); err == nil && d.Key == "attempts" {
					return n
				}
			}
		}
	}
	if s.Config.Retry.MaxAttempts > 0 {
		return s.Config.Retry.MaxAttempts
	}
	return 5
}

// listClass is the CSS class of a line in the trace listing.
func listClass(l *tline) string {
	c := "ev-" + cssWord(l.event)
	if l.callHas("fault") || l.event == "fault" {
		c += " ev-faulted"
	}
	if l.actor == "-" {
		c += " ev-host"
	}
	return c
}

// laneOfLine decides which lane a line belongs on ("" for the host).
func laneOfLine(l *tline) string {
	switch {
	case l.event == event.KindStore && l.callHas("backend"):
		return l.call("backend")
	case l.actor == "-" && l.event == "fault":
		return l.get("backend")
	}
	return laneOf(l.actor)
}

// lineWeight is the room a line takes within its instant: lines that draw a
// mark get more than lines that only stretch a bar.
func lineWeight(l *tline) int {
	switch l.event {
	case event.KindRuntime:
		switch {
		case l.callHas("fault"):
			return wPoint
		case l.op() == "fetch", l.callHas("eof"), l.callHas("err"):
			return wEnd
		}
		return wOther
	case event.KindStore:
		switch {
		case l.callHas("fault"):
			return wPoint
		case l.op() == "store-get":
			return wOther
		}
		return wEnd
	case "start", "exec-result", "retry-result", "advance":
		return wEnd
	}
	return wPoint
}

// timeGap is the room between two consecutive instants dt ms apart: it
// grows with log2(1 + dt/250ms), in integer arithmetic so the page is the
// same on every machine.
func timeGap(dt int64) int {
	if dt <= 0 {
		return 0
	}
	g := exGapBase + int(int64(exGapPerLog)*(log2milli(1000+4*uint64(dt))-log2milli(1000))/1000)
	return min(g, exGapMax)
}

// log2milli is 1000·log2(x), linear between powers of two.
func log2milli(x uint64) int64 {
	n := bits.Len64(x) - 1
	frac := ((x - 1<<n) * 1000) >> n
	return int64(n)*1000 + int64(frac)
}

// xscale maps lines and instants to x positions.
type xscale struct {
	times []int64 // sorted instants
	start []int   // x where each instant begins
	end   []int   // x where it ends (after its lines)
	lineX []int   // per line (index into lines): centre of its slot; -1 if not placed
}

func newXScale(lines []tline, extra []int64) xscale {
	var times []int64
	for i := range lines {
		times = append(times, lines[i].ms)
	}
	times = append(times, extra...)
	slices.Sort(times)
	times = slices.Compact(times)
	sc := xscale{times: times, start: make([]int, len(times)), end: make([]int, len(times)), lineX: make([]int, len(lines))}
	// Lines grouped by instant, in trace order within one instant.
	order := make([]int, 0, len(lines))
	for i := range lines {
		sc.lineX[i] = -1
		order = append(order, i)
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(lines[a].ms, lines[b].ms) })
	x, k := exLeft, 0
	for ti, t := range times {
		if ti > 0 {
			x += timeGap(t - times[ti-1])
		}
		sc.start[ti] = x
		for k < len(order) && lines[order[k]].ms == t {
			w := lineWeight(&lines[order[k]])
			sc.lineX[order[k]] = x + w/2
			x += w
			k++
		}
		if x == sc.start[ti] {
			x += 2
		}
		sc.end[ti] = x
	}
	return sc
}

// at is the x where instant t begins (t must be one of the instants given).
func (sc xscale) at(t int64) int {
	i, ok := slices.BinarySearch(sc.times, t)
	if !ok {
		if i >= len(sc.times) {
			return sc.right()
		}
	}
	return sc.start[i]
}

func (sc xscale) right() int {
	if len(sc.end) == 0 {
		return exLeft
	}
	return sc.end[len(sc.end)-1]
}

// explainLayout collects items while the lines are read.
type explainLayout struct {
	lines   []tline
	sc      xscale
	lanes   []string // backend lanes; the host lane comes last
	laneIdx map[string]int
	items   []exItem
}

func (lo *explainLayout) lane(name string) int {
	if name == "" {
		return -1 // the host
	}
	if i, ok := lo.laneIdx[name]; ok {
		return i
	}
	lo.laneIdx[name] = len(lo.lanes)
	lo.lanes = append(lo.lanes, name)
	return len(lo.lanes) - 1
}

func (lo *explainLayout) add(it exItem) { lo.items = append(lo.items, it) }

func (lo *explainLayout) x(i int) int { return lo.sc.lineX[i] }

func (lo *explainLayout) point(i int, lane int, track, shape, kind, label, tip string) {
	l := &lo.lines[i]
	lo.add(exItem{Kind: kind, Shape: shape, X: lo.x(i), Label: label,
		Tip: fmtMS(l.ms) + " " + tip, Lines: []int{l.no}, lane: lane, track: track})
}

// bar adds a bar from line a to line b (b < 0: to x2 directly).
func (lo *explainLayout) bar(lane int, track, kind, label, tip string, x1, x2 int, nos ...int) {
	if x2 < x1+exMinBar {
		x2 = x1 + exMinBar
	}
	lo.add(exItem{Kind: kind, Shape: "bar", X: x1, X2: x2, Label: label, Tip: tip, Lines: nos, lane: lane, track: track})
}

type opSpan struct {
	actor                      string
	lane                       int
	first, last, start, result int
	cutBy                      int // a host-restart line after it began, or -1
}

type pullSpan struct {
	key, actor       string
	lane             int
	fetch, end       int
	served, how, err string
}

type intentSpan struct {
	lane      int
	sched     int
	in        storedIntent
	end       int
	endReason string
}

type alarmSpan struct {
	set, end  int
	at        int64
	endReason string
}

func layoutExplain(s scenarios.Scenario, lines []tline, v *sim.Violation, attempts int) explainData {
	lo := &explainLayout{lines: lines, laneIdx: map[string]int{}}
	for i := range s.Config.Backends {
		lo.lane("b" + strconv.Itoa(i))
	}
	// First pass: lanes and the extra instants (due times, alarm times).
	var extra []int64
	for i := range lines {
		l := &lines[i]
		l.lane = laneOfLine(l)
		lo.lane(l.lane)
		switch {
		case l.event == event.KindStore && l.op() == "store-schedule" && !l.callHas("err"):
			if in := l.intent(); in.ok {
				extra = append(extra, in.notBefore)
			}
		case l.event == "alarm-set":
			if at, ok := offsetMS(l.get("at")); ok {
				extra = append(extra, at)
			}
		}
	}
	violationLine := -1
	for i := len(lines) - 1; i >= 0; i-- {
		if lines[i].event == "violation" {
			violationLine = i
			break
		}
	}
	if v != nil && violationLine < 0 {
		extra = append(extra, v.At.Milliseconds())
	}
	lo.sc = newXScale(lines, extra)
	host := len(lo.lanes) // the host lane's index once lanes are final

	var (
		ops      []*opSpan
		opIdx    = map[string]*opSpan{}
		pulls    []*pullSpan
		pullOpen = map[string]*pullSpan{}
		intents  []*intentSpan
		inOpen   = map[int]*intentSpan{}
		alarms   []*alarmSpan
		alarmOn  *alarmSpan
		restarts []int
	)
	for i := range lines {
		l := &lines[i]
		ln := lo.lane(l.lane)
		if ln < 0 {
			ln = host
		}
		if l.actor != "-" && l.lane != "" {
			op := opIdx[l.actor]
			if op == nil {
				op = &opSpan{actor: l.actor, lane: ln, first: i, start: -1, result: -1, cutBy: -1}
				opIdx[l.actor] = op
				ops = append(ops, op)
			}
			op.last = i
			switch l.event {
			case "start":
				op.start = i
			case "exec-result", "retry-result":
				op.result = i
			}
		}
		switch l.event {
		case event.KindRuntime:
			lo.rtLine(i, ln, &pulls, pullOpen)
		case event.KindStore:
			lo.storeLine(i, ln, &intents, inOpen)
		case "fault":
			kind := l.get("kind")
			label := kind
			if l.get("none") == "true" {
				label += " (none)"
			}
			if on := l.get("on"); on != "" {
				// Host.Inject: armed now, fires at the next such call.
				label += " armed on=" + on
			}
			lo.point(i, ln, "faults", "tri", "fault fault-event", label, "fault "+label+" on "+l.lane+" (injected)")
		case "alarm-set":
			at, ok := offsetMS(l.get("at"))
			if alarmOn != nil {
				alarmOn.end, alarmOn.endReason = i, "replaced"
			}
			alarmOn = nil
			if ok {
				alarmOn = &alarmSpan{set: i, end: -1, at: at}
				alarms = append(alarms, alarmOn)
			}
		case "alarm-cancel":
			if alarmOn != nil {
				alarmOn.end, alarmOn.endReason = i, "cancelled"
				alarmOn = nil
			}
			lo.point(i, host, "alarm", "cross", "alarm-cancel", "cancel", "alarm cancelled")
		case "alarm":
			due := l.get("due")
			if due == "" {
				due = "none"
			}
			if alarmOn != nil && alarmOn.at <= l.ms {
				alarmOn.end, alarmOn.endReason = i, "fired"
				alarmOn = nil
			}
			lo.point(i, host, "alarm", "dot", "alarm-fire", "due "+due, "alarm fires; due backends: "+due)
		case "host-restart":
			restarts = append(restarts, i)
			lo.add(exItem{Kind: "vline restart", Shape: "vline", X: lo.x(i), Label: "host restart",
				Tip: fmtMS(l.ms) + " host restart: operations in flight cut=" + l.get("cut"), Lines: []int{l.no}, lane: host, track: "host"})
			for _, op := range ops {
				if op.result < 0 && op.cutBy < 0 {
					op.cutBy = i
				}
			}
			if alarmOn != nil {
				alarmOn.end, alarmOn.endReason = i, "host restart"
				alarmOn = nil
			}
		case "host-start":
			lo.point(i, host, "host", "sq", "host-start", "start "+l.get("n"), "host start n="+l.get("n"))
		case "advance":
			lo.point(i, host, "host", "tick", "advance", "", "advance "+l.get("to"))
		case "liveness":
			state := l.get("faults")
			if state != "" {
				state = "faults=" + state
			} else if l.hasWord("ok") {
				state = "ok"
			}
			lo.point(i, host, "host", "dot", "liveness", "liveness "+state, "liveness phase: "+l.rest())
		case "violation":
			tip := "VIOLATION " + l.get("property") + ": " + l.get("detail")
			if v != nil {
				tip = "VIOLATION " + v.Property + ": " + v.Detail
			}
			lo.add(exItem{Kind: "vline violation", Shape: "vline", X: lo.x(i), Label: "VIOLATION " + l.get("property"),
				Tip: fmtMS(l.ms) + " " + tip, Lines: []int{l.no}, lane: host, track: "host"})
			lo.point(i, host, "host", "dot", "violation-dot", "", tip)
		case "start", "exec-result", "retry-result":
			// drawn as op bars below
		default:
			if ln == host {
				lo.point(i, host, "host", "dot", "host-other", l.event, l.event+" "+l.rest())
			}
		}
	}
	if v != nil && violationLine < 0 {
		x := lo.sc.at(v.At.Milliseconds())
		lo.add(exItem{Kind: "vline violation", Shape: "vline", X: x, Label: "VIOLATION " + v.Property,
			Tip: fmtMS(v.At.Milliseconds()) + " VIOLATION " + v.Property + ": " + v.Detail, lane: host, track: "host"})
	}
	endX := lo.sc.right() + 24
	for _, op := range ops {
		lo.opBar(op)
	}
	for _, pl := range pulls {
		lo.pullBar(pl)
	}
	for _, is := range intents {
		lo.intentBars(is, endX, attempts)
	}
	for _, a := range alarms {
		lo.alarmBar(a, host)
	}
	_ = restarts
	return lo.finish(endX)
}

// rtLine handles one runtime call: a pull's start or end, an injected fault.
func (lo *explainLayout) rtLine(i, ln int, pulls *[]*pullSpan, open map[string]*pullSpan) {
	l := &lo.lines[i]
	op := l.op()
	key := l.lane + "/" + l.call("stream")
	if fk := l.call("fault"); fk != "" {
		lo.point(i, ln, "faults", "tri", "fault", fk, "fault "+fk+" injected at "+op+" by "+l.actor+": "+l.call("err"))
	}
	switch op {
	case "fetch":
		pl := &pullSpan{key: key, actor: l.actor, lane: ln, fetch: i, end: -1}
		*pulls = append(*pulls, pl)
		if e := l.call("err"); e != "" {
			pl.end, pl.how, pl.err = i, "failed", e
			return
		}
		open[key] = pl
	case "stream-next", "stream-close":
		pl := open[key]
		if pl == nil {
			return
		}
		pl.served = l.call("served")
		switch {
		case op == "stream-close":
			pl.how = "closed"
		case l.call("err") != "":
			pl.how, pl.err = "failed", l.call("err")
		case l.callHas("eof"):
			pl.how = "eof"
		default:
			return
		}
		pl.end = i
		delete(open, key)
	}
}

// storeLine handles one scheduler store call: intents, store faults.
func (lo *explainLayout) storeLine(i, ln int, intents *[]*intentSpan, open map[int]*intentSpan) {
	l := &lo.lines[i]
	op := l.op()
	if fk := l.call("fault"); fk != "" {
		lo.point(i, ln, "faults", "tri", "fault store-fault", fk, "fault "+fk+" injected at "+op+" by "+l.actor+": "+l.call("err"))
	}
	if l.call("err") != "" || !l.callHas("backend") {
		return
	}
	switch op {
	case "store-schedule":
		if cur := open[ln]; cur != nil {
			cur.end, cur.endReason = i, "replaced by "+l.actor
		}
		in := l.intent()
		if !in.ok {
			delete(open, ln)
			return
		}
		is := &intentSpan{lane: ln, sched: i, in: in, end: -1}
		*intents = append(*intents, is)
		open[ln] = is
	case "store-clear":
		if cur := open[ln]; cur != nil {
			cur.end, cur.endReason = i, "cleared by "+l.actor
			delete(open, ln)
		}
		lo.point(i, ln, "intent", "sq", "store-clear", "", "intent cleared by "+l.actor)
	}
}

func (lo *explainLayout) opBar(op *opSpan) {
	first := op.first
	if op.start >= 0 {
		first = op.start
	}
	last := op.last
	if op.result >= 0 {
		last = op.result
	}
	kind := actorKind(op.actor)
	fl, ll := &lo.lines[first], &lo.lines[last]
	what := kind
	switch kind {
	case "exec":
		if fl.event == "start" {
			what = "exec " + fl.get("mode") + " w" + fl.get("writes")
		}
	case "retry":
		if fl.event == "start" {
			what = "retry " + fl.get("why")
		}
	case "alarm":
		what = "alarm retry"
	}
	outcome, detail := "", ""
	if op.result >= 0 {
		switch ll.event {
		case "exec-result":
			outcome = ll.get("sync")
			if outcome == "" {
				outcome = "error"
			}
			if e := ll.get("error"); e != "" && outcome != "error" {
				detail = " +error"
			}
		case "retry-result":
			outcome = ll.get("status")
			if ll.has("rejected") {
				outcome = "rejected"
			}
			if a := ll.get("attempt"); a != "" {
				detail = " a" + a
			}
		}
	} else if op.cutBy >= 0 {
		outcome = "cut"
	} else {
		outcome = "done"
	}
	label := what + " → " + outcome + detail
	tip := fmt.Sprintf("%s → %s %s: %s", fmtMS(fl.ms), fmtMS(ll.ms), op.actor, label)
	if op.result >= 0 {
		tip += "\nresult: " + ll.rest()
	}
	nos := []int{fl.no}
	if last != first {
		nos = append(nos, ll.no)
	}
	lo.bar(op.lane, "ops", "op op-"+cssWord(kind)+" out-"+cssWord(outcome), label, tip, lo.x(first), lo.x(last), nos...)
}

func (lo *explainLayout) pullBar(pl *pullSpan) {
	end := pl.end
	how := pl.how
	if end < 0 {
		// Never ended in the trace: cut by a restart or the run's end.
		end, how = pl.fetch, "open"
		for j := len(lo.lines) - 1; j > pl.fetch; j-- {
			if lo.lines[j].actor == pl.actor {
				end = j
				break
			}
		}
	}
	fl, el := &lo.lines[pl.fetch], &lo.lines[end]
	label := "pull"
	if pl.served != "" {
		label += " " + pl.served + "e"
	}
	label += " " + how
	tip := fmt.Sprintf("%s → %s pull by %s (stream %s, after %s): %s", fmtMS(fl.ms), fmtMS(el.ms), pl.actor,
		fl.call("stream"), fl.call("after"), how)
	if pl.served != "" {
		tip += ", " + pl.served + " entries served"
	}
	if pl.err != "" {
		tip += "\nerror: " + pl.err
	}
	nos := []int{fl.no}
	if end != pl.fetch {
		nos = append(nos, el.no)
	}
	lo.bar(pl.lane, "pulls", "pull pull-"+cssWord(how), label, tip, lo.x(pl.fetch), lo.x(end), nos...)
}

func (lo *explainLayout) intentBars(is *intentSpan, endX, attempts int) {
	sl := &lo.lines[is.sched]
	x1 := lo.x(is.sched)
	xe, reason, endNo := endX, "still stored when the trace ends", 0
	if is.end >= 0 {
		xe, reason, endNo = lo.x(is.end), is.endReason, lo.lines[is.end].no
	}
	nb := lo.sc.at(is.in.notBefore)
	a := strconv.Itoa(is.in.attempt)
	desc := fmt.Sprintf("intent on %s: attempt %d/%d, notBefore %s", lo.laneName(is.lane), is.in.attempt, attempts, fmtMS(is.in.notBefore))
	if is.in.runtime != "" {
		desc += ", runtime " + is.in.runtime
	}
	if is.in.target != "" {
		desc += ", target " + is.in.target
	}
	tip := fmt.Sprintf("%s scheduled by %s; %s\n%s", fmtMS(sl.ms), sl.actor, reason, desc)
	nos := []int{sl.no}
	if endNo != 0 {
		nos = append(nos, endNo)
	}
	open := ""
	if is.end < 0 {
		open = " open"
	}
	if bx := min(nb, xe); bx > x1 || nb <= x1 {
		if nb > x1 {
			lo.bar(is.lane, "intent", "intent backoff", "a"+a+" backoff", "backoff window "+fmtMS(sl.ms)+" → "+fmtMS(is.in.notBefore)+"\n"+tip, x1, bx, nos...)
		}
	}
	if xe > nb {
		from := max(nb, x1)
		lo.bar(is.lane, "intent", "intent due"+open, "a"+a+" due", "due since "+fmtMS(is.in.notBefore)+", waiting for a retry\n"+tip, from, xe, nos...)
	}
}

func (lo *explainLayout) alarmBar(a *alarmSpan, host int) {
	sl := &lo.lines[a.set]
	x1 := lo.x(a.set)
	target := lo.sc.at(a.at)
	x2, reason := target, "not fired when the trace ends"
	nos := []int{sl.no}
	if a.end >= 0 {
		x2, reason = min(target, lo.x(a.end)), a.endReason
		nos = append(nos, lo.lines[a.end].no)
	}
	tip := fmt.Sprintf("%s alarm set for %s; %s", fmtMS(sl.ms), fmtMS(a.at), reason)
	lo.bar(host, "alarm", "alarm-armed", "alarm "+fmtMS(a.at), tip, x1, x2, nos...)
	if a.end < 0 || a.endReason == "fired" || lo.x(a.end) >= target {
		lo.add(exItem{Kind: "alarm-target", Shape: "dia", X: target, Tip: "alarm due at " + fmtMS(a.at), Lines: nos, lane: host, track: "alarm"})
	}
}

func (lo *explainLayout) laneName(i int) string {
	if i >= 0 && i < len(lo.lanes) {
		return lo.lanes[i]
	}
	return "host"
}

// finish assigns rows and y positions, fits labels and builds the ticks.
func (lo *explainLayout) finish(endX int) explainData {
	host := len(lo.lanes)
	nl := host + 1
	// Sub-rows: bars of one track that overlap go on separate rows.
	type trackKey struct {
		lane  int
		track string
	}
	rowEnds := map[trackKey][]int{}
	order := make([]int, len(lo.items))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(lo.items[a].X, lo.items[b].X) })
	for _, i := range order {
		it := &lo.items[i]
		if it.Shape != "bar" || (it.track != "ops" && it.track != "pulls") {
			continue
		}
		k := trackKey{it.lane, it.track}
		ends := rowEnds[k]
		row := -1
		for r, e := range ends {
			if e+2 <= it.X {
				row = r
				break
			}
		}
		if row < 0 {
			row = len(ends)
			ends = append(ends, 0)
		}
		ends[row] = it.X2
		rowEnds[k] = ends
		it.sub = row
	}
	// Lanes and rows.
	data := explainData{Width: endX + exRight}
	y := exTop
	rowY := map[trackKey]int{}
	for ln := range nl {
		lane := exLane{Y: y}
		tracks := backendTracks
		if ln == host {
			lane.Name, lane.Host, tracks = "host", true, hostTracks
		} else {
			lane.Name = lo.lanes[ln]
		}
		y += 4
		for _, tr := range tracks {
			n := max(len(rowEnds[trackKey{ln, tr}]), 1)
			rowY[trackKey{ln, tr}] = y
			lane.Rows = append(lane.Rows, exRow{Name: tr, Y: y})
			y += n * exRowH
		}
		y += 4
		lane.H = y - lane.Y
		data.Lanes = append(data.Lanes, lane)
		y += exLaneGap
	}
	data.Height = y
	for i := range lo.items {
		it := &lo.items[i]
		it.Y = rowY[trackKey{it.lane, it.track}] + it.sub*exRowH
	}
	// The next mark of each row, so that the page fits labels at any zoom.
	type rowKey struct {
		lane  int
		track string
		sub   int
	}
	prev := map[rowKey]int{}
	for _, i := range order {
		it := &lo.items[i]
		if it.Shape == "vline" {
			continue
		}
		k := rowKey{it.lane, it.track, it.sub}
		if p, ok := prev[k]; ok {
			lo.items[p].NX = it.X
		}
		prev[k] = i
	}
	hasLine := map[int64]bool{}
	for i := range lo.lines {
		hasLine[lo.lines[i].ms] = true
	}
	for ti, t := range lo.sc.times {
		data.Ticks = append(data.Ticks, exTick{X: lo.sc.start[ti], Label: fmtMS(t), Extra: !hasLine[t]})
	}
	data.Items = make([]exItem, 0, len(lo.items))
	for _, i := range order {
		data.Items = append(data.Items, lo.items[i])
	}
	return data
}

// cssWord keeps a class name to [a-z0-9-].
func cssWord(s string) string {
	b := []byte(strings.ToLower(s))
	for i, c := range b {
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') {
			b[i] = '-'
		}
	}
	if len(b) == 0 {
		return "none"
	}
	return string(b)
}

var explainTemplate = template.Must(template.New("explain").Funcs(template.FuncMap{
	"inc": func(i int) int { return i + 1 },
}).Parse(explainHTML))
