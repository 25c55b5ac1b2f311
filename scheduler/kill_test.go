package scheduler_test

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/scheduler/schedulertest"
)

// The kill test: a child process streams Schedule/Clear calls into a
// SQLite store and acknowledges each one on stdout after it returns; the
// parent SIGKILLs it at a random moment, reopens the file and checks that
// every backend holds exactly its last acknowledged state, or the state of
// the one op that was in flight (it may have committed before its ack was
// written). Both processes derive the op stream from the same seed, so the
// parent knows the in-flight op without the child announcing it, and checks
// every ack line against its own copy (two paths to the same ops).
//
// NB: SIGKILL loses the process, not the OS page cache, so this proves the
// store is atomic and crash-consistent at the process level; power loss is
// what synchronous=FULL is for and no test here simulates it.

var (
	killPoints = flag.Int("scheduler.killpoints", 200, "number of SIGKILL points the kill test runs")
	killSeed   = flag.Uint64("scheduler.killseed", 1, "seed of the kill test's op streams and kill moments")
)

const (
	killEnvDB   = "SYNCSIM_SCHEDULER_KILL_DB"
	killEnvSeed = "SYNCSIM_SCHEDULER_KILL_SEED"
	// killChainLen children run one after another on the same file, so
	// each one also opens a file the previous one was killed writing.
	killChainLen = 10
	// killMaxOps bounds one child's op stream; the parent kills before
	// the child runs out (it then sleeps until killed).
	killMaxOps = 40
	// killBackends is small so ops on one backend overwrite each other.
	killBackends = 4
	// killAckTimeout bounds each wait for the child; a hung child fails.
	killAckTimeout = 30 * time.Second
)

// killOp is one call in a child's stream.
type killOp struct {
	clear  bool
	intent scheduler.Intent // Backend only, for a clear
}

func (op killOp) String() string {
	if op.clear {
		return fmt.Sprintf("clear %q", op.intent.Backend)
	}
	return "schedule " + schedulertest.Describe(op.intent)
}

// killOps derives a child's whole op stream from its seed.
func killOps(seed uint64) []killOp {
	rng := rand.New(rand.NewPCG(seed, 0x6b696c6c)) // "kill": the op stream
	ops := make([]killOp, killMaxOps)
	base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range ops {
		backend := fmt.Sprintf("b%d", rng.IntN(killBackends))
		if rng.IntN(10) < 3 {
			ops[i] = killOp{clear: true, intent: scheduler.Intent{Backend: backend}}
			continue
		}
		in := scheduler.Intent{Backend: backend, Attempt: rng.IntN(8),
			NotBefore: base.Add(time.Duration(rng.Int64N(int64(1000 * time.Hour))))}
		switch rng.IntN(3) {
		case 1:
			in.RuntimeID = scheduler.Ptr("")
		case 2:
			in.RuntimeID = scheduler.Ptr(fmt.Sprintf("rt-%d", rng.IntN(100)))
		}
		switch rng.IntN(4) {
		case 1:
			in.TargetCursor = scheduler.Ptr(scheduler.At(rng.Int64N(100)))
		case 2:
			in.TargetCursor = scheduler.Ptr(scheduler.AtPath(rng.Int64N(100), ""))
		case 3:
			in.TargetCursor = scheduler.Ptr(scheduler.AtPath(rng.Int64N(100), fmt.Sprintf("/p%d", rng.IntN(10))))
		}
		ops[i] = killOp{intent: in}
	}
	return ops
}

// TestHelperProcess is the child. It does nothing unless the parent set
// killEnvDB; it never returns then (the parent kills it).
func TestHelperProcess(t *testing.T) {
	path := os.Getenv(killEnvDB)
	if path == "" {
		return
	}
	seed, err := strconv.ParseUint(os.Getenv(killEnvSeed), 10, 64)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bad seed:", err)
		os.Exit(2)
	}
	s, err := scheduler.OpenSQLite(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "open:", err)
		os.Exit(2)
	}
	ctx := context.Background()
	fmt.Fprintln(os.Stdout, "ready")
	for i, op := range killOps(seed) {
		if op.clear {
			err = s.Clear(ctx, op.intent.Backend)
		} else {
			err = s.Schedule(ctx, op.intent)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "op %d %s: %v\n", i, op, err)
			os.Exit(2)
		}
		// os.Stdout is unbuffered: the line is in the pipe when this returns.
		fmt.Fprintf(os.Stdout, "ack %d %s\n", i, op)
	}
	time.Sleep(time.Hour) // wait for the kill, never finish on our own
	os.Exit(3)
}

func TestKillDurability(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns child processes")
	}
	if os.Getenv(killEnvDB) != "" {
		t.Skip("inside a child")
	}
	start := time.Now()
	kills, inFlightCommitted := 0, 0
	for chain := 0; kills < *killPoints; chain++ {
		path := filepath.Join(t.TempDir(), fmt.Sprintf("kill-%d.db", chain))
		state := map[string]*scheduler.Intent{} // verified durable state
		for link := 0; link < killChainLen && kills < *killPoints; link++ {
			seed := *killSeed*1_000_003 + uint64(chain*killChainLen+link)
			committed := runKillChild(t, path, seed, state)
			kills++
			if committed {
				inFlightCommitted++
			}
			if t.Failed() {
				t.Fatalf("reproduce: go test ./scheduler -run TestKillDurability -scheduler.killseed=%d (failing child seed %d)", *killSeed, seed)
			}
		}
	}
	elapsed := time.Since(start)
	t.Logf("kill test: %d SIGKILL points in %v (%v each); in-flight op found committed %d times",
		kills, elapsed.Round(time.Millisecond), (elapsed / time.Duration(kills)).Round(time.Microsecond), inFlightCommitted)
}

// runKillChild runs one child on path, kills it, and checks the reopened
// store against state (updated in place to what was found). It reports
// whether the unacknowledged in-flight op turned out committed.
func runKillChild(t *testing.T, path string, seed uint64, state map[string]*scheduler.Intent) (inFlightCommitted bool) {
	t.Helper()
	ops := killOps(seed)
	moment := rand.New(rand.NewPCG(seed, 0x6d6f6d)) // "mom": the kill moment stream
	killAfter := moment.IntN(killMaxOps)            // acks to read first
	killDelay := time.Duration(moment.IntN(300)) * time.Microsecond

	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), killEnvDB+"="+path, killEnvSeed+"="+strconv.FormatUint(seed, 10))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
		io.Copy(io.Discard, stdout)
	}()
	acked := 0
	timeout := time.NewTimer(killAckTimeout)
	defer timeout.Stop()
	checkLine := func(line string) {
		if line == "ready" {
			return
		}
		want := fmt.Sprintf("ack %d %s", acked, ops[min(acked, len(ops)-1)])
		if acked >= len(ops) || line != want {
			t.Errorf("child seed %d: line %q, want %q", seed, line, want)
			return
		}
		acked++
	}
	// Wait for "ready" plus killAfter acks, then a little more, then kill.
wait:
	for acked < killAfter {
		select {
		case line, ok := <-lines:
			if !ok {
				break wait
			}
			checkLine(line)
		case <-timeout.C:
			t.Errorf("child seed %d: no ack after %v", seed, killAckTimeout)
			break wait
		}
	}
	time.Sleep(killDelay)
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Errorf("kill: %v", err)
	}
	for line := range lines { // acks already in the pipe were written before death
		checkLine(line)
	}
	werr := cmd.Wait()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
		t.Fatalf("child seed %d did not die by our signal: %v\nstderr:\n%s", seed, werr, stderr.String())
	}

	acknowledged := make(map[string]*scheduler.Intent, len(state))
	for b, in := range state {
		acknowledged[b] = in
	}
	apply := func(m map[string]*scheduler.Intent, op killOp) {
		if op.clear {
			delete(m, op.intent.Backend)
		} else {
			m[op.intent.Backend] = scheduler.Ptr(op.intent.Clone())
		}
	}
	for _, op := range ops[:acked] {
		apply(acknowledged, op)
	}

	s, err := scheduler.OpenSQLite(path)
	if err != nil {
		t.Fatalf("reopen after kill (seed %d): %v", seed, err)
	}
	defer s.Close()
	list, err := s.List(context.Background())
	if err != nil {
		t.Fatalf("list after kill (seed %d): %v", seed, err)
	}
	found := map[string]*scheduler.Intent{}
	for _, in := range list {
		found[in.Backend] = scheduler.Ptr(in)
	}
	inFlight := acked < len(ops)
	for b := range killBackends {
		backend := fmt.Sprintf("b%d", b)
		got, want := found[backend], acknowledged[backend]
		if sameSlot(got, want) {
			continue
		}
		if inFlight && ops[acked].intent.Backend == backend {
			after := map[string]*scheduler.Intent{backend: want}
			apply(after, ops[acked])
			if sameSlot(got, after[backend]) {
				inFlightCommitted = true
				continue
			}
		}
		t.Errorf("child seed %d killed after %d acks: backend %s holds %s, want %s (acknowledged)%s",
			seed, acked, backend, describeSlot(got), describeSlot(want), inFlightNote(inFlight, ops, acked))
	}
	if len(found) > killBackends {
		t.Errorf("child seed %d: store holds %d backends, at most %d were written", seed, len(found), killBackends)
	}
	clear(state)
	for b, in := range found {
		state[b] = in
	}
	return inFlightCommitted
}

func sameSlot(a, b *scheduler.Intent) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Equal(*b)
}

func describeSlot(in *scheduler.Intent) string {
	if in == nil {
		return "nothing"
	}
	return schedulertest.Describe(*in)
}

func inFlightNote(inFlight bool, ops []killOp, acked int) string {
	if !inFlight {
		return ""
	}
	return fmt.Sprintf(" or the in-flight op %s", ops[acked])
}
