package main

import (
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/syncsim/syncsim/scenarios"
	"github.com/syncsim/syncsim/sim/oracle"
)

// byPropertyDefaultSeeds is -by-property's sample when -seeds is 0.
const byPropertyDefaultSeeds = 2000

// checkerCostJSON is one checker's line of `syncsim bench -by-property -json`.
type checkerCostJSON struct {
	Checker          string   `json:"checker"`
	Properties       []string `json:"properties"`
	MicrosPerRun     float64  `json:"cpu_us_per_scenario"`
	CallsPerRun      float64  `json:"calls_per_scenario"`
	ShareOfRunCPUPct float64  `json:"share_of_run_cpu_pct"`
}

type byPropertyJSON struct {
	Seeds           int               `json:"seeds"`
	FirstSeed       uint64            `json:"first_seed"`
	RunMicros       float64           `json:"run_cpu_us_per_scenario"`
	CheckersMicros  float64           `json:"checkers_cpu_us_per_scenario"`
	Checkers        []checkerCostJSON `json:"checkers"`
	DriverJudged    []string          `json:"driver_judged"`
	ClockOverheadUs float64           `json:"clock_overhead_us_per_call"`
	Machine         machineJSON       `json:"machine"`
}

// benchByProperty runs seeds default-shaped scenarios one after another on
// this goroutine with every built-in checker's calls timed on the
// monotonic clock (scenarios.CheckerTime), and reports each checker's time
// per scenario beside the whole run's CPU. One seed at a time, so a
// checker's time is CPU time unless the machine takes the thread away. Properties still judged inside the
// driver have no checker to time: they are listed apart.
func benchByProperty(e env, seeds int, first uint64, jsonOut bool) int {
	if seeds == 0 {
		seeds = byPropertyDefaultSeeds
	}
	sum := map[string]*oracle.Cost{}
	var order []string
	start := selfCPU()
	for i := range seeds {
		r, err := scenarios.Run(scenarios.FromSeed(first+uint64(i), scenarios.DefaultConfig),
			scenarios.RunOptions{TraceKeep: sweepTraceKeep, CheckerClock: scenarios.CheckerTime})
		if err != nil {
			return inputError(e, "bench", err)
		}
		for _, c := range r.CheckerCosts {
			s, ok := sum[c.Name]
			if !ok {
				s = &oracle.Cost{Name: c.Name}
				sum[c.Name] = s
				order = append(order, c.Name)
			}
			s.CPU += c.CPU
			s.Calls += c.Calls
		}
	}
	runCPU := selfCPU() - start
	out := byPropertyJSON{Seeds: seeds, FirstSeed: first, RunMicros: micros(runCPU) / float64(seeds),
		ClockOverheadUs: micros(clockReadCost()) * 2, Machine: thisMachine()}
	for _, name := range order {
		s := sum[name]
		c := checkerCostJSON{Checker: name, MicrosPerRun: micros(s.CPU) / float64(seeds),
			CallsPerRun: float64(s.Calls) / float64(seeds), ShareOfRunCPUPct: 100 * float64(s.CPU) / float64(runCPU)}
		for _, p := range oracle.Registry {
			if p.InOracle() && (p.Family == name || p.Family == "" && p.Name == name) {
				c.Properties = append(c.Properties, p.Name)
			}
		}
		out.CheckersMicros += c.MicrosPerRun
		out.Checkers = append(out.Checkers, c)
	}
	for _, p := range oracle.Registry {
		if !p.InOracle() {
			out.DriverJudged = append(out.DriverJudged, p.Name)
		}
	}
	if jsonOut {
		if err := writeJSON(e.stdout, out); err != nil {
			return inputError(e, "bench", err)
		}
		return exitOK
	}
	fmt.Fprintf(e.stdout, "CPU per scenario by checker: %d default-shaped scenarios from seed %d, one at a time, each checker call timed on the monotonic clock\n\n", seeds, first)
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "checker\tproperties\tµs/scenario\tcalls/scenario\tshare of run CPU\t")
	for _, c := range out.Checkers {
		fmt.Fprintf(tw, "%s\t%s\t%.1f\t%.1f\t%.2f%%\t\n", c.Checker, strings.Join(c.Properties, ", "), c.MicrosPerRun, c.CallsPerRun, c.ShareOfRunCPUPct)
	}
	fmt.Fprintf(tw, "all checkers\t\t%.1f\t\t%.2f%%\t\n", out.CheckersMicros, 100*out.CheckersMicros/out.RunMicros)
	fmt.Fprintf(tw, "whole run (process CPU)\t\t%.1f\t\t100%%\t\n", out.RunMicros)
	_ = tw.Flush()
	fmt.Fprintf(e.stdout, "\nEach call's figure includes about %.2f µs of clock reads.", out.ClockOverheadUs)
	if len(out.DriverJudged) > 0 {
		fmt.Fprintf(e.stdout, " Judged inside the driver, not timed apart (%d): %s.", len(out.DriverJudged), strings.Join(out.DriverJudged, ", "))
	}
	fmt.Fprintln(e.stdout)
	return exitOK
}

func micros(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }

// clockReadCost is the mean cost of one read of the checker clock.
func clockReadCost() time.Duration {
	const n = 2001
	t0 := scenarios.CheckerTime()
	for range n - 1 {
		scenarios.CheckerTime()
	}
	return (scenarios.CheckerTime() - t0) / n
}
