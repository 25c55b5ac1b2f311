package sim

import (
	"testing"
	"time"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/workspace"
)

// BenchmarkTraceAddDetails is one event line with a few details, kept in a
// bounded ring as a sweep keeps it.
func BenchmarkTraceAddDetails(b *testing.B) {
	tr := NewTrace(Epoch)
	tr.Keep(64)
	at := Epoch.Add(1234567 * time.Millisecond)
	b.ReportAllocs()
	for b.Loop() {
		tr.Add(at, "#12.exec.b1", "exec-result", "sync=complete", "exit=0", "applied=3", "target=(7,/out/3-2)")
	}
}

// BenchmarkTraceAddOneDetail is the shape of every runtime record line.
func BenchmarkTraceAddOneDetail(b *testing.B) {
	tr := NewTrace(Epoch)
	tr.Keep(64)
	b.ReportAllocs()
	for b.Loop() {
		tr.Add(Epoch, "#12.exec.b1", "rt", "#41 #12.exec.b1 stream-next conn 3 rt b1-rt1 stream 7 entry (7,/out/3-2) served 3")
	}
}

// BenchmarkHostStep is one exec with a wait-mode pull, judged and checked:
// the host's per-step cost without the scenario driver.
func BenchmarkHostStep(b *testing.B) {
	h, err := NewHost(judged(Config{Seed: 1, Backends: 2, Profile: faults.Off(), TraceKeep: 64}))
	if err != nil {
		b.Fatal(err)
	}
	defer h.Close()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		h.SpawnExec(i%2, workspace.SyncWait, 2)
		if v := h.Step(); v != nil {
			b.Fatal(v)
		}
	}
}
