package scenarios

import (
	"strings"
	"testing"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/sim"
	"pgregory.net/rapid"
)

// machine is the rapid state machine over one simulated host: every action
// is one op of the scenario language, applied to the real workspace; the
// "" action checks that no property has broken. rapid shrinks a failing
// action sequence, and the ops it kept are logged in the scenario language.
type machine struct {
	s Scenario
	h *sim.Host
}

func (m *machine) apply(t *rapid.T, op Op) {
	m.s.Ops = append(m.s.Ops, op)
	t.Log(op.String())
	keys := opKeys(m.s.Ops)
	key := keys[len(keys)-1]
	m.h.SetOp(key, nil)
	if v, _ := apply(m.h, op, cutStream(m.s.Seed, key)); v != nil {
		t.Fatalf("%v\nops:\n%s", v, opsText(m.s.Ops))
	}
}

func opsText(ops []Op) string {
	lines := make([]string, len(ops))
	for i, o := range ops {
		lines[i] = o.String()
	}
	return strings.Join(lines, "\n")
}

// TestStateMachine drives the host through rapid-chosen op sequences. The
// seed (fault draws, interleaving) and the profile are drawn first; rapid
// then picks actions. Deepen with -rapid.checks and -rapid.steps.
func TestStateMachine(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		backends := rapid.IntRange(1, 3).Draw(t, "backends")
		seed := rapid.Uint64().Draw(t, "seed")
		s := Scenario{Seed: seed, Config: Config{Backends: backends, Scheduler: "memory"}}
		s.Config.Retry = rapid.SampledFrom(retryChoices).Draw(t, "retry")
		s.Profile = faults.DrawProfile(sim.Stream(seed, sim.LabelProfile))
		cfg, cleanup, err := hostConfig(s, RunOptions{})
		if err != nil {
			t.Fatal(err)
		}
		defer cleanup()
		if _, err := judge(&cfg, s, RunOptions{}); err != nil {
			t.Fatal(err)
		}
		h, err := sim.NewHost(cfg)
		if err != nil {
			t.Fatal(err)
		}
		defer h.Close()
		m := &machine{s: s, h: h}
		b := rapid.IntRange(0, backends-1)
		t.Repeat(map[string]func(*rapid.T){
			"exec": func(t *rapid.T) {
				mode := rapid.SampledFrom([]Mode{Wait, Defer}).Draw(t, "mode")
				m.apply(t, Op{Kind: OpExec, Backend: b.Draw(t, "b"), Mode: mode, Writes: rapid.IntRange(0, 3).Draw(t, "writes"), Staged: rapid.Bool().Draw(t, "staged")})
			},
			"write": func(t *rapid.T) { m.apply(t, Op{Kind: OpWrite, Backend: b.Draw(t, "b")}) },
			"retry": func(t *rapid.T) {
				m.apply(t, Op{Kind: OpRetry, Backend: b.Draw(t, "b"), Early: rapid.Bool().Draw(t, "early")})
			},
			"advance": func(t *rapid.T) {
				m.apply(t, Op{Kind: OpAdvance, Dur: rapid.SampledFrom(advanceSteps).Draw(t, "d")})
			},
			"crash":    func(t *rapid.T) { m.apply(t, Op{Kind: OpCrash, Backend: b.Draw(t, "b")}) },
			"restart":  func(t *rapid.T) { m.apply(t, Op{Kind: OpRestart, Backend: b.Draw(t, "b")}) },
			"truncate": func(t *rapid.T) { m.apply(t, Op{Kind: OpTruncate, Backend: b.Draw(t, "b")}) },
			"lose-identity": func(t *rapid.T) {
				m.apply(t, Op{Kind: OpLoseIdentity, Backend: b.Draw(t, "b"), None: rapid.Bool().Draw(t, "none")})
			},
			"host-restart": func(t *rapid.T) { m.apply(t, Op{Kind: OpHostRestart}) },
			"inject":       func(t *rapid.T) { m.apply(t, drawInject(t, backends, 4)) },
			"group": func(t *rapid.T) {
				n := rapid.IntRange(2, maxGroupSize).Draw(t, "n")
				g := Op{Kind: OpGroup}
				for range n {
					switch rapid.IntRange(0, 5).Draw(t, "member") {
					case 0, 1, 2:
						g.Ops = append(g.Ops, Op{Kind: OpExec, Backend: b.Draw(t, "b"), Writes: rapid.IntRange(0, 2).Draw(t, "writes")})
					case 3:
						g.Ops = append(g.Ops, Op{Kind: OpExec, Backend: b.Draw(t, "b"), Mode: Defer})
					case 4:
						g.Ops = append(g.Ops, Op{Kind: OpRetry, Backend: b.Draw(t, "b"), Early: true})
					case 5:
						g.Ops = append(g.Ops, Op{Kind: OpHostRestart})
					}
				}
				m.apply(t, g)
			},
			"": func(t *rapid.T) {
				if v := h.Violation(); v != nil {
					t.Fatalf("%v\nops:\n%s", v, opsText(m.s.Ops))
				}
			},
		})
		if v := h.Liveness(); v != nil {
			t.Fatalf("%v\nops:\n%s", v, opsText(m.s.Ops))
		}
	})
}
