package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/syncsim/syncsim/scenarios"
	"github.com/syncsim/syncsim/sim"
	"github.com/syncsim/syncsim/sim/event"
)

// explainFailingRun finds the first seed from 1 whose run fails under the
// single-alarm planted bug after at least one pull and one injected fault
// (so every kind of mark is drawn), and returns it with its result. Searching keeps the test true
// when the generator changes which seed fails first.
func explainFailingRun(t testing.TB) (scenarios.Scenario, scenarios.Result) {
	t.Helper()
	cfg := scenarios.DefaultConfig
	cfg.Bug = "single-alarm"
	for seed := uint64(1); seed <= 200; seed++ {
		s := scenarios.FromSeed(seed, cfg)
		r, err := scenarios.Run(s, scenarios.RunOptions{})
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		events := r.Trace.Events()
		pulled := slices.ContainsFunc(events, func(e event.Event) bool {
			return e.Kind == event.KindRuntime && e.Value("op") == "fetch" && !e.Has("err")
		})
		faulted := slices.ContainsFunc(events, func(e event.Event) bool {
			return e.Kind == "fault" || (e.IsRecord() && e.Has("fault"))
		})
		if r.Violation != nil && pulled && faulted {
			return s, r
		}
	}
	t.Fatal("no seed in 1..200 fails under single-alarm after a pull and a fault")
	return scenarios.Scenario{}, scenarios.Result{}
}

// firstFailingSeed is the first seed from 1 that fails under bug.
func firstFailingSeed(t testing.TB, bug string) string {
	t.Helper()
	cfg := scenarios.DefaultConfig
	cfg.Bug = bug
	for seed := uint64(1); seed <= 2000; seed++ {
		r, err := scenarios.Run(scenarios.FromSeed(seed, cfg), scenarios.RunOptions{TraceKeep: 1})
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if r.Violation != nil {
			return strconv.FormatUint(seed, 10)
		}
	}
	t.Fatalf("no seed in 1..2000 fails under %s", bug)
	return ""
}

func renderExplain(t testing.TB, s scenarios.Scenario, r scenarios.Result) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := renderExplainHTML(&buf, s, r); err != nil {
		t.Fatalf("renderExplainHTML: %v", err)
	}
	return buf.Bytes()
}

func TestExplainHTMLFailingRun(t *testing.T) {
	s, r := explainFailingRun(t)
	page := renderExplain(t, s, r)
	html := string(page)

	if again := renderExplain(t, s, r); !bytes.Equal(page, again) {
		t.Fatal("two renders of one run differ")
	}
	// A second run of the same seed renders the same bytes too.
	r2, err := scenarios.Run(s, scenarios.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if again := renderExplain(t, s, r2); !bytes.Equal(page, again) {
		t.Fatal("renders of two runs of one seed differ")
	}

	for _, want := range []string{
		"<!doctype html>", "</html>", `id="tl"`,
		"VIOLATION: " + r.Violation.Property,
		r.Hash,
		s.Profile.String(),
		`"name":"host"`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	for b := range s.Config.Backends {
		name := "b" + string(rune('0'+b))
		if !strings.Contains(html, `"name":"`+name+`"`) {
			t.Errorf("page has no lane for backend %s", name)
		}
	}
	if !regexp.MustCompile(`"k":"vline violation"`).MatchString(html) {
		t.Error("the timeline has no violation marker")
	}
	for _, kind := range []string{`"k":"op op-exec`, `"k":"pull pull-`, `"k":"intent backoff`, `"k":"fault`} {
		if !strings.Contains(html, kind) {
			t.Errorf("the timeline has no %s mark", kind)
		}
	}
	// Self-contained: nothing to fetch, not even the SVG namespace string.
	for _, bad := range []string{"http://", "https://", "@import", "<link", "src=", "fetch(", "XMLHttpRequest", "innerHTML"} {
		if strings.Contains(html, bad) {
			t.Errorf("page contains %q", bad)
		}
	}
	// Every trace line is listed, escaped.
	for _, l := range r.Trace.Lines() {
		if !strings.Contains(html, template_escape(l)) {
			t.Fatalf("trace line missing from the listing: %s", l)
		}
	}
	if dir := os.Getenv("SYNCSIM_EXPLAIN_OUT"); dir != "" {
		if err := os.WriteFile(filepath.Join(dir, "explain.html"), page, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// template_escape is html/template's escaping of text in an element.
func template_escape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;", "+", "&#43;", "\x00", "\uFFFD").Replace(s)
}

// eventLine reads one trace line as the explain page sees it.
func eventLine(t *testing.T, no int, line string) tline {
	t.Helper()
	e, err := event.ParseEvent(line)
	if err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	l := newTline(no, e)
	if l.raw != line {
		t.Fatalf("line %d prints as %s", no, l.raw)
	}
	return l
}

func TestExplainReadsEvents(t *testing.T) {
	l := eventLine(t, 7, `+0000003.600 #5.exec.b0 exec-result error="pull failed: a \"b\" c" exit=0 sync=pending`)
	if l.ms != 3600 || l.actor != "#5.exec.b0" || l.event != "exec-result" {
		t.Fatalf("read %+v", l)
	}
	if got := l.get("error"); got != `pull failed: a "b" c` {
		t.Errorf("error=%q", got)
	}
	if l.get("sync") != "pending" || l.get("exit") != "0" || laneOf(l.actor) != "b0" || actorKind(l.actor) != "exec" || l.call("sync") != "" {
		t.Errorf("details %+v", l.ev.Fields)
	}

	st := eventLine(t, 8, `+0000034.200 #11.exec.b1 store #10 store-schedule b1 {backend b1 runtime b1-rt1 target {4,"/a b"} attempt 2 notBefore +0000035.200}`)
	if st.op() != "store-schedule" || laneOfLine(&st) != "b1" || st.get("backend") != "" {
		t.Fatalf("store call %+v", st.ev.Fields)
	}
	in := st.intent()
	if !in.ok || in.attempt != 2 || in.notBefore != 35200 || in.runtime != "b1-rt1" || in.target != `{4,"/a b"}` {
		t.Errorf("intent %+v", in)
	}

	rt := eventLine(t, 9, `+0000003.100 #3.exec.b1 rt #16 stream-next conn 2 rt b1-rt1 stream 2 served 1 fault transport-mid-stream err "injected: closed mid-stream"`)
	if rt.op() != "stream-next" || rt.call("fault") != "transport-mid-stream" || rt.call("err") != "injected: closed mid-stream" || rt.call("stream") != "2" || !rt.callHas("served") || rt.callHas("eof") {
		t.Errorf("rt call %+v", rt.ev.Fields)
	}

	host := eventLine(t, 10, `+0000000.200 - fault backend=b0 kind=restart`)
	if laneOfLine(&host) != "b0" || host.get("kind") != "restart" || host.callHas("kind") {
		t.Errorf("host fault %+v", host.ev.Fields)
	}
	live := eventLine(t, 11, `+0000009.000 - liveness ok`)
	if !live.hasWord("ok") || live.hasWord("faults") {
		t.Errorf("liveness %+v", live.ev.Fields)
	}
}

// A trace with odd lines (a runtime call of an unusual shape), unknown
// events and a lane the config does not name still renders, with every
// line listed.
func TestExplainHTMLOddTrace(t *testing.T) {
	tr := sim.NewTrace(sim.Epoch)
	tr.Header("seed 1")
	tr.Add(sim.Epoch, "", "host-start", "n=1")
	tr.Add(sim.Epoch.Add(time.Second), "#1.exec.b7", "start", "op=exec", "mode=wait", "writes=1")
	tr.Add(sim.Epoch.Add(time.Second), "#1.exec.b7", "rt", `#1 #1.exec.b7 fetch conn 1 rt r stream 3 after {0,null} current {1,null} appliedPush {0,null} rev 1`)
	tr.Add(sim.Epoch.Add(2*time.Second), "", "mystery", "x=<script>alert(1)</script>")
	tr.Add(sim.Epoch.Add(3*time.Second), "", "host-restart", "cut=1")
	s := scenarios.Scenario{Seed: 1, Config: scenarios.Config{Backends: 1, Scheduler: "memory"}}
	r := scenarios.Result{Trace: tr, Hash: tr.Hash(), Violation: &sim.Violation{Property: "model", Detail: "a </script> detail", At: 3 * time.Second}}
	html := string(renderExplain(t, s, r))
	for _, want := range []string{`"name":"b0"`, `"name":"b7"`, `"k":"vline restart"`, `"k":"vline violation"`, `"k":"op op-exec out-cut"`, "&lt;script&gt;alert(1)&lt;/script&gt;"} {
		if !strings.Contains(html, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(html, "<script>alert") || strings.Count(html, "</script>") != 1 {
		t.Error("trace text reached the page unescaped")
	}
}

// TestExplainHTMLLabelsLegendAndNames reads the page without a browser:
// every bar carries a label (the page draws it inside or after the bar);
// the legend explains the labels' shorthand (a1, w2) and the time format;
// no trace line names its actor twice; every time on the page is in the
// trace's format.
func TestExplainHTMLLabelsLegendAndNames(t *testing.T) {
	s, r := explainFailingRun(t)
	page := string(renderExplain(t, s, r))
	var data struct {
		Items []struct {
			K, S, L string
			X, X2   int
			NX      int `json:"nx"`
		} `json:"items"`
	}
	m := regexp.MustCompile(`var D = (\{.*\});`).FindStringSubmatch(page)
	if m == nil {
		t.Fatal("no timeline data on the page")
	}
	if err := json.Unmarshal([]byte(m[1]), &data); err != nil {
		t.Fatal(err)
	}
	bars, short := 0, 0
	for _, it := range data.Items {
		if it.S != "bar" {
			continue
		}
		bars++
		if it.L == "" {
			t.Errorf("bar %s at x=%d has no label", it.K, it.X)
		}
		if it.X2-it.X < 60 {
			short++
		}
	}
	if bars == 0 || short == 0 {
		t.Fatalf("%d bars, %d short: the run does not exercise short bars", bars, short)
	}
	legend := page[strings.Index(page, `<div class="legend">`):strings.Index(page, `<div class="controls">`)]
	for _, want := range []string{">a1<", ">a2<", "w2", "&rarr; pending", "intent backoff", "intent due", "alarm armed", "host restart", "violation", "injected fault", "0000012.345"} {
		if !strings.Contains(legend, want) {
			t.Errorf("legend lacks %q", want)
		}
	}
	for _, l := range r.Trace.Lines() {
		f := strings.Fields(l)
		if len(f) < 3 || !strings.HasPrefix(f[1], "#") {
			continue
		}
		if strings.Count(l, f[1]+" ") > 1 {
			t.Errorf("trace line names its actor twice: %s", l)
		}
	}
	if want := fmt.Sprintf("(%d steps, as the scenario file lists them)", scenarios.Steps(s.Ops)); !strings.Contains(page, want) || !strings.Contains(page, fmt.Sprintf("steps=%d", scenarios.Steps(s.Ops))) {
		t.Errorf("page does not count %d steps in both places", scenarios.Steps(s.Ops))
	}
	unescaped := strings.NewReplacer("&#43;", "+", "\\u002b", "+", "&rarr;", "→").Replace(page)
	checkOneTimeFormat(t, unescaped)
}
