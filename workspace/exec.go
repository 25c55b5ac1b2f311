package workspace

import (
	"context"
	"errors"
	"fmt"
	"io"
)

// NoExitCode is ExecResult.ExitCode when the command's stream ended (or
// failed) without an exit event.
const NoExitCode = -1

// maxExecEvents bounds the events read from one command's stream, drain
// included. Past it the stream is treated as failed.
const maxExecEvents = 1 << 24

// spawned is a dispatched command: its event stream, the handle it was
// spawned on and that handle's runtime id (the post-command fence).
type spawned struct {
	events  EventStream
	handle  Handle
	runtime *string
}

// Exec runs command on a backend: push → spawn → stream events → the
// post-command step of opts.Sync (SPEC 3.1, 3.2). It returns once the
// post-command step has finished, so a pending intent is already stored
// ("schedules before returning").
//
// Errors:
//   - before the command was dispatched (deferred mode without a scheduler,
//     a failed pre-exec push, a failed spawn): ExecResult is zero apart from
//     ExitCode NoExitCode, and nothing was scheduled;
//   - the event stream failed, or ctx ended while reading it: the command
//     was dispatched, the result's Sync is pending with the error, and the
//     error is returned too (the stream's error, or context.Cause(ctx)).
//
// A clean end of stream returns a nil error whatever the sync outcome; the
// command's exit code is ExitCode.
func (w *Workspace) Exec(ctx context.Context, command string, opts ExecOptions) (ExecResult, error) {
	id, err := w.resolveBackend(opts.Backend)
	if err != nil {
		return ExecResult{ExitCode: NoExitCode}, err
	}
	// assertDeferredReady runs first: no push, no spawn.
	if opts.Sync == SyncDefer && w.sched == nil {
		return ExecResult{ExitCode: NoExitCode}, errDeferredNeedsScheduler
	}
	sp, err := runWithReconnect(ctx, w, id, "shell.exec", policyPreDispatch, func(h Handle) (spawned, error) {
		if _, err := w.pushForExec(ctx, id, h); err != nil {
			if !IsTransportFailure(err) {
				return spawned{}, err
			}
			// Nothing was spawned yet: replay push and spawn together on
			// the replacement handle so the command cannot skip its push.
			return spawned{}, &PreDispatchTransportError{TransportError{
				Msg:   "pre-exec push failed: " + safeErrorMessage(err),
				Cause: err,
			}}
		}
		events, err := h.Exec(ctx, command)
		if err != nil {
			return spawned{}, err
		}
		sp := spawned{events: events, handle: h}
		if rt, ok := h.RuntimeID(); ok {
			sp.runtime = &rt
		}
		return sp, nil
	})
	if err != nil {
		return ExecResult{ExitCode: NoExitCode}, err
	}
	return w.runCommand(ctx, id, sp, opts)
}

// runCommand streams the events and runs the post-command step.
func (w *Workspace) runCommand(ctx context.Context, id string, sp spawned, opts ExecOptions) (ExecResult, error) {
	res := ExecResult{ExitCode: NoExitCode}
	streamErr := w.readEvents(ctx, sp, opts.OnEvent, &res.ExitCode)
	// The stream is released exactly once on every path: at its end, after
	// its failure, or to cancel it upstream.
	closeStream := func() { _ = sp.events.Close() }

	switch {
	case streamErr == nil && opts.Sync == SyncDefer:
		closeStream()
		res.Sync = w.settleDeferred(ctx, id, sp.runtime)
		return res, nil

	case streamErr == nil:
		closeStream()
		pulled, err := w.pullSerialized(ctx, id, sp.runtime)
		if err != nil {
			res.Sync = w.settleUnfenced(ctx, id, sp.runtime, err)
			return res, nil
		}
		res.Sync = SyncResult{Status: SyncComplete, Applied: pulled.Applied, Skipped: pulled.Skipped}
		return res, nil

	case ctx.Err() == nil:
		// The event stream failed: no reattach. A transport failure drops
		// the spawning handle (only if still current), then an unfenced,
		// coalescing intent is scheduled.
		closeStream()
		w.onShellError(id, sp.handle, streamErr)
		res.Sync = w.settleUnfenced(ctx, id, sp.runtime, streamErr)
		return res, streamErr

	case opts.Sync == SyncDefer:
		// Consumer cancelled a deferred command: the command is not killed.
		// Keep draining to its end, then capture its target. A Go stream
		// cannot be read with a cancelled ctx, so the drain and the
		// scheduling run under context.WithoutCancel(ctx) (deviation from
		// JS, where the cancel itself keeps reading). Events after the
		// cancel are not delivered to OnEvent.
		reason := context.Cause(ctx)
		dctx := context.WithoutCancel(ctx)
		if err := w.readEvents(dctx, sp, nil, &res.ExitCode); err != nil {
			closeStream()
			w.onShellError(id, sp.handle, err)
			res.Sync = w.settleUnfenced(dctx, id, sp.runtime, err)
			return res, reason
		}
		closeStream()
		res.Sync = w.settleDeferred(dctx, id, sp.runtime)
		return res, reason

	default:
		// Consumer cancelled a wait-mode command: cancel upstream, then
		// schedule an unfenced intent (the command itself is not killed).
		reason := context.Cause(ctx)
		closeStream()
		res.Sync = w.settleUnfenced(context.WithoutCancel(ctx), id, sp.runtime, reason)
		return res, reason
	}
}

// readEvents reads the stream to io.EOF, recording the exit code and
// handing each event to onEvent. It returns the stream's error, or ctx's.
func (w *Workspace) readEvents(ctx context.Context, sp spawned, onEvent func(Event), exit *int) error {
	for range maxExecEvents {
		ev, err := sp.events.Next(ctx)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			if ctx.Err() != nil {
				return context.Cause(ctx)
			}
			return err
		}
		if ev.Kind == EventExit {
			*exit = ev.ExitCode
		}
		if onEvent != nil {
			onEvent(ev)
		}
	}
	return fmt.Errorf("workspace: command event stream exceeded maxExecEvents (%d)", maxExecEvents)
}

// settleDeferred is settle() of SPEC 3.2 defer mode: record a fenced intent
// (onPostExecPending) and report pending with its metadata, or with the
// error if scheduling failed (an unfenced intent may still be stored).
func (w *Workspace) settleDeferred(ctx context.Context, id string, runtime *string) SyncResult {
	meta, err := w.schedulePendingSync(ctx, id, runtime, true)
	if err != nil {
		return SyncResult{Status: SyncPending, Error: w.resultMessage(err)}
	}
	return SyncResult{Status: SyncPending, Backend: meta.Backend, RuntimeID: meta.RuntimeID, TargetCursor: meta.TargetCursor}
}

// settleUnfenced is onPullPending: a wait-mode (coalescing, unfenced)
// intent, whose own errors are swallowed, and pending with cause's message.
// The intent is stored under context.WithoutCancel(ctx): when the caller
// cancelled mid-pull, the pull failed because of it, and the intent is
// what brings the command's changes in later; a cancelled context would
// make the store refuse it and the changes would wait for the next command
// (Go deviation, docs/SPEC.md 3.2).
func (w *Workspace) settleUnfenced(ctx context.Context, id string, runtime *string, cause error) SyncResult {
	_, _ = w.schedulePendingSync(context.WithoutCancel(ctx), id, runtime, false)
	return SyncResult{Status: SyncPending, Error: w.resultMessage(cause)}
}

// onShellError drops the spawning handle after a transport failure of its
// event stream, if it is still the current one (SPEC 5.3).
func (w *Workspace) onShellError(id string, h Handle, err error) {
	if IsTransportFailure(err) {
		w.invalidateHandle(id, h)
	}
}
