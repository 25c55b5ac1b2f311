package faults

import (
	"bytes"
	"context"
	"fmt"

	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/workspace"
)

// conn is one connection (one WebSocket) to a container.
type conn struct {
	c          *Container
	id         int
	runtime    string
	hasRuntime bool
	closed     bool  // the client closed it
	broken     error // set once the connection died under the client
}

var (
	_ workspace.Handle  = (*conn)(nil)
	_ workspace.SyncRPC = (*conn)(nil)
)

// enter is the prologue of every blocking call: Block (no lock held), name
// the actor, then take the lock. The caller must unlock, and defer leave
// before it defers the unlock, so that leave runs once the lock is free.
func (c *Container) enter(op Op) (actor string) {
	c.hooks.Block(c.point(op))
	actor = c.hooks.Actor()
	c.mu.Lock()
	return actor
}

// leave is the epilogue of every blocking call, on every return path: the
// blocking point after the call returns (ReturnHooks), no lock held.
func (c *Container) leave(op Op) {
	if c.rets != nil {
		c.rets.Return(c.point(op))
	}
}

// call starts a record entry for a call on cn.
func (cn *conn) call(actor string, op Op) Call {
	return Call{Actor: actor, Op: op, Conn: cn.id, RuntimeID: cn.runtime, HasRuntimeID: cn.hasRuntime}
}

// usableLocked returns the error a call on cn fails with before doing
// anything, or nil.
func (cn *conn) usableLocked(ctx context.Context) error {
	switch {
	case cn.closed:
		return ErrDisposed
	case cn.broken != nil:
		return cn.broken
	}
	return ctx.Err()
}

// failLocked records call with err, breaking the connection when err is an
// injected transport failure, and returns err.
func (cn *conn) failLocked(call Call, err error, fresh Kind) error {
	if fresh != NoFault {
		call.Fault = fresh
		if fresh != SettleFailure && fresh != RPCError && cn.broken == nil {
			// A transport failure kills the WebSocket: later calls on this
			// connection fail too, until the workspace reconnects.
			cn.broken = cn.c.secrets.broken(fresh, msgBroken)
		}
	}
	call.Err = PublicText(err)
	call.classify(err)
	cn.c.appendLocked(call)
	return err
}

// eventArmLocked fires an event fault armed at site at the start of a call
// on cn (see Container.Arm): it returns the error the call fails with (the
// failure recorded), or nil when the call proceeds.
func (cn *conn) eventArmLocked(call *Call, site Site) error {
	k, err := cn.c.eventArmLocked(site)
	if k == NoFault {
		return nil
	}
	call.Fault, call.Armed = k, true
	if err == nil {
		return nil
	}
	return cn.failLocked(*call, err, k)
}

// Connect opens a new connection. See Crash for a crashed container.
func (c *Container) Connect(ctx context.Context) (workspace.Handle, error) {
	actor := c.enter(OpConnect)
	defer c.leave(OpConnect)
	defer c.mu.Unlock()
	call := Call{Actor: actor, Op: OpConnect}
	fail := func(err error, k Kind) (workspace.Handle, error) {
		if k != NoFault {
			call.Fault = k
		}
		call.Err = PublicText(err)
		call.classify(err)
		c.appendLocked(call)
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return fail(err, NoFault)
	}
	if c.crashed {
		if c.failConnects > 0 {
			c.failConnects--
			return fail(c.secrets.injected(Crash, msgCrashConnect), Crash)
		}
		c.launchLocked()
		call.Relaunched = true
	}
	if k, err := c.eventArmLocked(SiteConnect); k != NoFault {
		call.Fault, call.Armed = k, true
		if err != nil {
			return fail(err, k)
		}
	}
	if fire, armed := c.faultLocked(SiteConnect, TransportConnect); fire {
		call.Armed = armed
		return fail(c.secrets.injected(TransportConnect, msgConnect), TransportConnect)
	}
	cn := &conn{c: c, id: len(c.conns) + 1, runtime: c.reported, hasRuntime: c.reportedOK}
	c.conns = append(c.conns, cn)
	call.Conn, call.RuntimeID, call.HasRuntimeID = cn.id, cn.runtime, cn.hasRuntime
	c.appendLocked(call)
	return cn, nil
}

// RuntimeID reports the id learnt at connect time. It is recorded but does
// not block: it is a cached property of the connection.
func (cn *conn) RuntimeID() (string, bool) {
	actor := cn.c.hooks.Actor()
	cn.c.mu.Lock()
	defer cn.c.mu.Unlock()
	cn.c.appendLocked(cn.call(actor, OpRuntimeID))
	return cn.runtime, cn.hasRuntime
}

// SyncMode is SyncRemote, or SyncNone for a container set so (SetSyncNone).
// A sync-less handle's answer is recorded as its sync entry (OpSync, like
// Sync's): the workspace never takes a sync channel from it, and the
// judge must still see that the actor held a handle of this connection
// when its sync step made no call at all.
func (cn *conn) SyncMode() workspace.SyncMode {
	actor := cn.c.hooks.Actor()
	cn.c.mu.Lock()
	defer cn.c.mu.Unlock()
	if cn.c.syncNone {
		cn.c.appendLocked(cn.call(actor, OpSync))
		return workspace.SyncNone
	}
	return workspace.SyncRemote
}

// Sync returns the connection itself: it serves the SyncRPC surface. Like
// RuntimeID it is recorded (OpSync) but does not block and never fails.
// Which actor held which connection is an environment fact the judge needs:
// an actor can hold a handle without a call of its own (the cached one, or
// another actor's shared connect, SPEC 5.4), and a sync step whose cursor
// is already at its target makes no remote call (SPEC 6.4 step 1). Without
// this entry such a step looks like one that never got a handle.
func (cn *conn) Sync() workspace.SyncRPC {
	actor := cn.c.hooks.Actor()
	cn.c.mu.Lock()
	defer cn.c.mu.Unlock()
	cn.c.appendLocked(cn.call(actor, OpSync))
	if cn.c.syncNone {
		return nil // SPEC 4: a sync-less handle has no sync surface
	}
	return cn
}

// Close closes the connection; later calls on it fail with ErrDisposed.
func (cn *conn) Close() error {
	actor := cn.c.enter(OpClose)
	defer cn.c.leave(OpClose)
	defer cn.c.mu.Unlock()
	cn.closed = true
	cn.c.appendLocked(cn.call(actor, OpClose))
	return nil
}

// FetchChanges opens a change stream (SPEC 6.2). The pre-fetch reconcile
// hook runs first and takes in staged writes (settleLocked); it never fails
// here (the original ignores its failures). Faults: transport-post-dispatch fails the call (a
// read, so it had no effect); transport-mid-stream arms the stream to fail
// after k entries, k drawn from [0, entries in range].
func (cn *conn) FetchChanges(ctx context.Context, req workspace.FetchRequest) (*workspace.FetchEnvelope, error) {
	c := cn.c
	actor := c.enter(OpFetch)
	defer c.leave(OpFetch)
	defer c.mu.Unlock()
	call := cn.call(actor, OpFetch)
	call.After = req.After
	if req.Through != nil {
		call.Through = scheduler.Ptr(*req.Through)
	}
	if err := cn.usableLocked(ctx); err != nil {
		return nil, cn.failLocked(call, err, NoFault)
	}
	if err := cn.eventArmLocked(&call, SiteFetch); err != nil {
		return nil, err
	}
	c.settleLocked()
	if fire, armed := c.faultLocked(SiteFetch, TransportPostDispatch); fire {
		call.Armed = armed
		return nil, cn.failLocked(call, cn.c.secrets.injected(TransportPostDispatch, msgPostDispatch), TransportPostDispatch)
	}
	if fire, armed := c.faultLocked(SiteFetch, RPCError); fire {
		call.Armed = armed
		return nil, cn.failLocked(call, c.lostCodedLocked(cn.c.secrets.injected(RPCError, msgRPC), armed), RPCError)
	}
	current := scheduler.At(c.currentRev)
	if req.Through != nil && req.Through.Less(current) {
		current = *req.Through
	}
	c.streams++
	st := &changeStream{cn: cn, id: c.streams, after: req.After, current: current, pos: req.After, failAt: -1}
	if a, ok := c.takeStreamArmLocked(SiteStream); ok {
		st.arm = streamArm{set: true, Armed: a}
	} else if c.drawLocked(TransportMidStream) {
		st.failAt = c.rng.IntN(c.countLocked(req.After, current) + 1)
	}
	call.Stream = st.id
	call.CurrentCursor, call.AppliedPushCursor, call.CurrentRev = current, c.fetchCursor, c.currentRev
	c.appendLocked(call)
	return &workspace.FetchEnvelope{CurrentCursor: current, AppliedPushCursor: c.fetchCursor, Changes: st}, nil
}

// Watermarks reads the remote's revisions. With Settle, the pre-fetch hook
// runs first: it fails under settle-failure (a non-transport error: the
// connection stays up), else it takes in staged writes (settleLocked), so
// the revision read can be higher than without Settle. Faults: settle-failure, then
// transport-post-dispatch.
func (cn *conn) Watermarks(ctx context.Context, req workspace.WatermarksRequest) (workspace.Watermarks, error) {
	c := cn.c
	actor := c.enter(OpWatermarks)
	defer c.leave(OpWatermarks)
	defer c.mu.Unlock()
	call := cn.call(actor, OpWatermarks)
	call.Settle = req.Settle
	if err := cn.usableLocked(ctx); err != nil {
		return workspace.Watermarks{}, cn.failLocked(call, err, NoFault)
	}
	site := SiteWatermarks
	if req.Settle {
		site = SiteSettle
	}
	if err := cn.eventArmLocked(&call, site); err != nil {
		return workspace.Watermarks{}, err
	}
	if req.Settle {
		if fire, armed := c.faultLocked(SiteSettle, SettleFailure); fire {
			call.Armed = armed
			return workspace.Watermarks{}, cn.failLocked(call, cn.c.secrets.injected(SettleFailure, msgSettle), SettleFailure)
		}
		c.settleLocked()
	}
	if fire, armed := c.faultLocked(site, TransportPostDispatch); fire {
		call.Armed = armed
		return workspace.Watermarks{}, cn.failLocked(call, cn.c.secrets.injected(TransportPostDispatch, msgPostDispatch), TransportPostDispatch)
	}
	w := c.watermarksLocked()
	call.CurrentRev = w.CurrentRev
	c.appendLocked(call)
	return w, nil
}

// Push applies req in one transaction (SPEC 6.2): all or nothing. Each
// changed path takes one remote rev and is marked as pushed, so later
// fetches leave it out (see doc.go, "Pushed files"). For a peer
// (senderCursor.rev > 0) the appliedPushCursor advances to senderCursor if
// ahead. Faults: transport-pre-dispatch (nothing applied), then
// transport-post-dispatch (applied, then the reply is lost).
func (cn *conn) Push(ctx context.Context, req workspace.PushRequest) (workspace.PushResult, error) {
	c := cn.c
	actor := c.enter(OpPush)
	defer c.leave(OpPush)
	defer c.mu.Unlock()
	call := cn.call(actor, OpPush)
	sender := scheduler.At(req.SenderRev)
	if req.SenderCursor != nil {
		sender = *req.SenderCursor
	}
	call.Sender, call.Changes, call.LogEpoch = sender, len(req.Changes), c.wipes-1
	for i, ch := range req.Changes {
		if at := ch.Cursor(); i == 0 || at.Less(call.FirstChange) {
			call.FirstChange = at
		}
	}
	for _, ch := range req.Changes {
		if !ch.Deleted {
			call.PushBytes += int64(len(ch.Content))
		}
	}
	if err := cn.usableLocked(ctx); err != nil {
		return workspace.PushResult{}, cn.failLocked(call, err, NoFault)
	}
	if err := cn.eventArmLocked(&call, SitePush); err != nil {
		return workspace.PushResult{}, err
	}
	if fire, armed := c.faultLocked(SitePush, TransportPreDispatch); fire {
		call.Armed = armed
		return workspace.PushResult{}, cn.failLocked(call, cn.c.secrets.injected(TransportPreDispatch, msgPreDispatch), TransportPreDispatch)
	}
	for _, ch := range req.Changes {
		c.currentRev++
		c.setFileLocked(ch.Path, &remoteFile{content: c.pushedContentLocked(ch), deleted: ch.Deleted, rev: c.currentRev, pushed: true})
	}
	peer := sender.Rev > 0
	if peer && c.fetchCursor.Less(sender) {
		c.fetchCursor = sender
	}
	res := workspace.PushResult{Rev: c.currentRev, Applied: len(req.Changes)}
	if peer {
		res.AppliedPushCursor = sender
	}
	call.Applied, call.AppliedPushCursor, call.CurrentRev = res.Applied, res.AppliedPushCursor, res.Rev
	if fire, armed := c.faultLocked(SitePush, TransportPostDispatch); fire {
		call.Armed = armed
		return workspace.PushResult{}, cn.failLocked(call, cn.c.secrets.injected(TransportPostDispatch, msgPostDispatch), TransportPostDispatch)
	}
	c.appendLocked(call)
	return res, nil
}

// pushedContentLocked is the remote's own copy of a pushed change's
// content. A push the reply of which was lost is sent again, and a push
// cursor reset sends every pending change again: when the path already
// holds that content, the remote keeps the copy it has (contents are
// never written in place) instead of copying megabytes once more.
func (c *Container) pushedContentLocked(ch workspace.Change) []byte {
	if old := c.files[ch.Path]; old != nil && !ch.Deleted && !old.deleted && len(ch.Content) > 0 && bytes.Equal(old.content, ch.Content) {
		return old.content
	}
	return cloneBytes(ch.Content)
}

// cloneBytes copies b, keeping nil as nil.
func cloneBytes(b []byte) []byte {
	if b == nil {
		return nil
	}
	return append([]byte(nil), b...)
}

// String names the connection for debugging.
func (cn *conn) String() string {
	return fmt.Sprintf("%s conn %d", cn.c.backend, cn.id)
}
