package sim

import (
	"strings"
	"testing"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/workspace"
)

// TestInjectCrashAtPostPull arms a crash at the post-command fetch: the
// pull fails with "container exited", the reconnect relaunches a new
// runtime, the fence turns the pull into EEXEC_LOST and the stored intent
// names the first runtime. The model agrees (no violation), the trace shows
// the arming and the firing, and the host counts the runtime's log as lost.
func TestInjectCrashAtPostPull(t *testing.T) {
	h, err := NewHost(judged(Config{Seed: 1, Backends: 1, Profile: faults.Off()}))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if err := h.Inject(0, faults.Armed{Kind: faults.Crash, On: faults.SiteFetch}); err != nil {
		t.Fatal(err)
	}
	if err := h.Inject(0, faults.Armed{Kind: faults.Crash, On: faults.SiteFetch, After: 1}); err == nil {
		t.Fatal("Inject accepted after= on a fetch")
	}
	h.SpawnExec(0, workspace.SyncWait, 1)
	if v := h.Step(); v != nil {
		t.Fatal(v)
	}
	// The stored table is the model's: intent-table compared the two at
	// the step's end and found nothing.
	intents, err := h.storedIntents()
	if err != nil {
		t.Fatal(err)
	}
	if len(intents) != 1 {
		t.Fatalf("expected one stored intent, got %v", intents)
	}
	if in := intents[0]; in.Backend != "b0" || in.RuntimeID == nil || *in.RuntimeID != "b0-rt1" || in.Attempt != 1 {
		t.Fatalf("expected b0's intent naming b0-rt1 at attempt 1, got %v", in)
	}
	if !h.backends.wiped[0] || !h.backends.reconnected[0] {
		t.Fatal("an armed crash did not count as a lost log")
	}
	text := strings.Join(h.Trace().Lines(), "\n")
	for _, want := range []string{
		"- fault armed backend=b0 kind=crash on=fetch",
		`fetch conn 1 rt b0-rt1 after {0,null} fault crash armed err "`,
		`injected crash: `,
		"connect conn 2 rt b0-rt2 relaunched",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("trace lacks %q:\n%s", want, text)
		}
	}
	if v := h.Liveness(); v != nil {
		t.Fatal(v)
	}
}
