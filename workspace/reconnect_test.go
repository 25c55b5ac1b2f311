package workspace

import (
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestReconnectAlwaysReplaysTransportFailure(t *testing.T) {
	b := &fakeBackend{fetch: func(conn int, _ FetchRequest) (*FetchEnvelope, error) {
		if conn == 0 {
			return nil, errors.New("WebSocket closed unexpectedly")
		}
		return &FetchEnvelope{Changes: &fakeChanges{}}, nil
	}}
	h := newHarness(t, b, 0)
	if _, err := h.ws.Pull(ctx0, ""); err != nil {
		t.Fatal(err)
	}
	if connects, _, fetches, closes, _ := b.stats(); connects != 2 || fetches != 2 || closes != 1 {
		t.Fatalf("connects %d fetches %d closes %d, want 2 2 1", connects, fetches, closes)
	}
}

func TestReconnectGivesUpAfterOneRetry(t *testing.T) {
	b := &fakeBackend{fetch: func(conn int, _ FetchRequest) (*FetchEnvelope, error) {
		return nil, fmt.Errorf("econnreset on %d", conn)
	}}
	h := newHarness(t, b, 0)
	_, err := h.ws.Pull(ctx0, "")
	want := `Workspace backend "sandbox": pull failed after 1 reconnect retry: initial=econnreset on 0; last=econnreset on 1`
	if errorText(err) != want || !errors.Is(err, ErrTransport) || !IsTransportFailure(err) {
		t.Fatalf("err = %v, want %q (transport-classified)", err, want)
	}
}

func TestReconnectPreDispatchDoesNotReplaySpawnTransportFailure(t *testing.T) {
	b := &fakeBackend{exec: func(conn int, _ string) (EventStream, error) {
		return nil, errors.New("socket hang up")
	}}
	h := newHarness(t, b, 0)
	_, err := h.ws.Exec(ctx0, "build", ExecOptions{})
	want := `Workspace backend "sandbox": shell.exec transport failed; the command may have started and was not replayed: socket hang up`
	var te *TransportError
	if errorText(err) != want || !errors.As(err, &te) {
		t.Fatalf("err = %v, want %q", err, want)
	}
	if _, execs, _, closes, _ := b.stats(); execs != 1 || closes != 1 {
		t.Fatalf("execs %d closes %d, want 1 1", execs, closes)
	}
}

func TestReconnectPreDispatchReplaysPreDispatchFailure(t *testing.T) {
	b := &fakeBackend{exec: func(conn int, _ string) (EventStream, error) {
		if conn == 0 {
			return nil, errors.New("Attempted to use RPC stub after it has been disposed.")
		}
		return &fakeEvents{events: []Event{{Kind: EventStdout, Data: "hi"}, {Kind: EventExit, ExitCode: 3}}}, nil
	}}
	h := newHarness(t, b, 0)
	var seen []Event
	res, err := h.ws.Exec(ctx0, "build", ExecOptions{OnEvent: func(e Event) { seen = append(seen, e) }})
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 3 || res.Sync.Status != SyncComplete || len(seen) != 2 {
		t.Fatalf("res %+v events %v", res, seen)
	}
	if connects, execs, _, _, _ := b.stats(); execs != 2 || connects != 2 {
		t.Fatalf("execs %d connects %d, want 2 2", execs, connects)
	}
}

func TestReconnectPrePushTransportFailureReplaysPushAndSpawn(t *testing.T) {
	pushes := map[int]int{}
	b := &fakeBackend{push: func(conn int, req PushRequest) (PushResult, error) {
		pushes[conn]++
		if conn == 0 {
			return PushResult{}, errors.New("connection refused")
		}
		return PushResult{Rev: req.SenderRev, Applied: len(req.Changes), AppliedPushCursor: *req.SenderCursor}, nil
	}}
	h := newHarness(t, b, 0)
	if err := h.ws.WriteFile("", "/in.txt", []byte("x")); err != nil {
		t.Fatal(err)
	}
	if _, err := h.ws.Exec(ctx0, "build", ExecOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, execs, _, _, _ := b.stats(); execs != 1 || pushes[0] != 1 || pushes[1] != 1 {
		t.Fatalf("execs %d pushes %v, want 1 exec and one push per connection", execs, pushes)
	}
}

func TestReconnectRetriesConnectFailure(t *testing.T) {
	b := &fakeBackend{connectErr: func(conn int) error {
		if conn == 0 {
			return &TransportError{Msg: "container not ready"}
		}
		return nil
	}}
	h := newHarness(t, b, 0)
	if _, err := h.ws.Push(ctx0, ""); err != nil {
		t.Fatal(err)
	}
	if connects, _, _, closes, _ := b.stats(); connects != 2 || closes != 0 {
		t.Fatalf("connects %d closes %d", connects, closes)
	}
	// A non-transport connect failure is not retried.
	b2 := &fakeBackend{connectErr: func(int) error { return errors.New("bad config") }}
	h2 := newHarness(t, b2, 0)
	if _, err := h2.ws.Push(ctx0, ""); errorText(err) != "bad config" {
		t.Fatalf("err = %v", err)
	}
	if connects, _, _, _, _ := b2.stats(); connects != 1 {
		t.Fatalf("connects %d", connects)
	}
}

func TestReconnectNonTransportErrorKeepsHandle(t *testing.T) {
	b := &fakeBackend{fetch: failingFetch("plain failure")}
	h := newHarness(t, b, 0)
	for range 2 {
		if _, err := h.ws.Pull(ctx0, ""); errorText(err) != "plain failure" {
			t.Fatalf("err = %v", err)
		}
	}
	if connects, _, _, closes, _ := b.stats(); connects != 1 || closes != 0 {
		t.Fatalf("connects %d closes %d", connects, closes)
	}
}

func TestReconcileFailureClosesUnpublishedHandle(t *testing.T) {
	b := &fakeBackend{watermarks: func(conn int, _ WatermarksRequest) (Watermarks, error) {
		if conn == 0 {
			return Watermarks{}, errors.New("websocket is not open")
		}
		return Watermarks{}, nil
	}}
	h := newHarness(t, b, 0)
	if _, err := h.ws.Pull(ctx0, ""); err != nil {
		t.Fatal(err)
	}
	if connects, _, _, closes, _ := b.stats(); connects != 2 || closes != 1 {
		t.Fatalf("connects %d closes %d, want 2 1", connects, closes)
	}
}

func TestInvalidateHandleByIdentity(t *testing.T) {
	b := &fakeBackend{}
	h := newHarness(t, b, 0)
	old := &fakeHandle{b: b, conn: 0}
	cur := &fakeHandle{b: b, conn: 1}
	h.ws.handles["sandbox"] = cur
	if h.ws.invalidateHandle("sandbox", old) {
		t.Fatal("a stale handle invalidated the current one")
	}
	if _, _, _, closes, _ := b.stats(); closes != 0 {
		t.Fatal("stale handle was closed")
	}
	if !h.ws.invalidateHandle("sandbox", cur) || h.ws.handles["sandbox"] != nil {
		t.Fatal("current handle not invalidated")
	}
	if _, _, _, closes, _ := b.stats(); closes != 1 {
		t.Fatalf("closes %d", closes)
	}
}

func TestCloseDuringConnectDiscardsHandle(t *testing.T) {
	b := &fakeBackend{}
	h := newHarness(t, b, 0)
	b.watermarks = func(int, WatermarksRequest) (Watermarks, error) {
		_ = h.ws.Close() // the workspace closes while reconcile runs
		return Watermarks{}, nil
	}
	_, err := h.ws.Pull(ctx0, "")
	if want := `Workspace closed while backend "sandbox" was connecting.`; errorText(err) != want {
		t.Fatalf("err = %v, want %q", err, want)
	}
	if _, _, _, closes, _ := b.stats(); closes != 1 {
		t.Fatalf("closes %d", closes)
	}
}

func TestClassifiers(t *testing.T) {
	pre := &PreDispatchTransportError{TransportError{Msg: "pre"}}
	tests := []struct {
		name           string
		err            error
		transport, pre bool
	}{
		{"plain", errors.New("x"), false, false},
		{"TransportError", &TransportError{Msg: "x"}, true, false},
		{"PreDispatch", pre, true, true},
		{"sentinel wrapped", fmt.Errorf("injected: %w", ErrTransport), true, false},
		{"pre sentinel wrapped", fmt.Errorf("injected: %w", ErrPreDispatchTransport), true, true},
		{"pattern", errors.New("Container Exited (137)"), true, false},
		{"disposed stub", errors.New("rpc stub after it has been disposed"), true, true},
		{"cause chain", fmt.Errorf("a: %w", fmt.Errorf("b: %w", &TransportError{Msg: "t"})), true, false},
		{"joined", errors.Join(errors.New("x"), pre), true, true},
		{"too deep", deepWrap(&TransportError{Msg: "t"}, 8), false, false},
		{"depth 7 ok", deepWrap(&TransportError{Msg: "t"}, 7), true, false},
		// A sync call's error is the remote's, rethrown as it is by the
		// original driver: the Go wrapper that names the call is no level.
		{"depth 7 through the rpc wrapper", rpcErr("watermarks", deepWrap(&TransportError{Msg: "t"}, 7)), true, false},
		{"too deep through the rpc wrapper", rpcErr("push", deepWrap(&PreDispatchTransportError{}, 8)), false, false},
		{"pre depth 7 through the rpc wrapper", rpcErr("push", deepWrap(&PreDispatchTransportError{}, 7)), true, true},
	}
	for _, tc := range tests {
		if got := IsTransportFailure(tc.err); got != tc.transport {
			t.Errorf("%s: IsTransportFailure = %v", tc.name, got)
		}
		if got := IsPreDispatchTransportFailure(tc.err); got != tc.pre {
			t.Errorf("%s: IsPreDispatchTransportFailure = %v", tc.name, got)
		}
	}
	var te *TransportError
	if !errors.As(pre, &te) || te.Msg != "pre" || !errors.Is(pre, ErrTransport) {
		t.Fatal("PreDispatchTransportError does not match as a TransportError")
	}
	lost := newExecutionLost(postCommandSyncLabel)
	if !errors.Is(lost, ErrExecutionLost) || lost.Code != "EEXEC_LOST" {
		t.Fatal("ExecutionLostError class")
	}
	if diff := cmp.Diff(`Execution "post-command sync" was lost when its container runtime was replaced.`, lost.Error()); diff != "" {
		t.Fatal(diff)
	}
}

// opaque hides its cause's text so only the chain walk can find it.
type opaque struct{ cause error }

func (o opaque) Error() string { return "opaque" }
func (o opaque) Unwrap() error { return o.cause }

func deepWrap(err error, n int) error {
	for range n {
		err = opaque{err}
	}
	return err
}
