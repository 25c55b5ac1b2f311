package faults

import (
	"fmt"
	"slices"
	"strings"

	"github.com/syncsim/syncsim/scheduler"
)

// Op names one kind of call in the runtime's record. Hooks.Block points
// use the same names.
type Op string

// The ops of the record.
const (
	OpConnect     Op = "connect"
	OpRuntimeID   Op = "runtime-id"
	OpFetch       Op = "fetch"
	OpStreamNext  Op = "stream-next"
	OpStreamClose Op = "stream-close"
	OpWatermarks  Op = "watermarks"
	OpPush        Op = "push"
	OpExec        Op = "exec"
	OpEventNext   Op = "event-next"
	OpEventClose  Op = "event-close"
	OpClose       Op = "close"
)

// Call is one call the workspace made into the runtime, as recorded.
// Fields that do not apply to Op are zero.
type Call struct {
	Seq   int // position in this container's record, from 1
	Actor string
	Op    Op
	// Conn is the connection id (from 1); 0 for a Connect that failed.
	Conn int
	// RuntimeID is the id the connection reports; HasRuntimeID is false
	// when it reports none.
	RuntimeID    string
	HasRuntimeID bool
	// Stream is the change stream (fetch, stream-*) or event stream (exec,
	// event-*) id, from 1.
	Stream int

	// Inputs.
	After   scheduler.Cursor  // fetch
	Through *scheduler.Cursor // fetch
	Settle  bool              // watermarks
	Command string            // exec
	Sender  scheduler.Cursor  // push: the sender cursor (defaulted)
	Changes int               // push: changes sent

	// Outputs.
	CurrentCursor     scheduler.Cursor // fetch
	AppliedPushCursor scheduler.Cursor // fetch, push
	CurrentRev        int64            // fetch, watermarks, push: after the call
	Entry             *scheduler.Cursor
	Entries           int  // stream-next: entries served on the stream so far
	EOF               bool // stream-next, event-next: end reached
	Applied           int  // push
	ExitCode          int  // event-next of the exit event
	Relaunched        bool // connect: relaunched a crashed container

	// Fault is the kind injected by this very call (NoFault when none;
	// errors on an already broken connection carry NoFault here).
	Fault Kind
	Err   string
}

// String renders the call on one stable line.
func (c Call) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "#%d %s %s conn %d", c.Seq, c.Actor, c.Op, c.Conn)
	if c.Conn != 0 {
		if c.HasRuntimeID {
			fmt.Fprintf(&b, " rt %s", c.RuntimeID)
		} else {
			b.WriteString(" rt none")
		}
	}
	if c.Stream != 0 {
		fmt.Fprintf(&b, " stream %d", c.Stream)
	}
	switch c.Op {
	case OpConnect:
		if c.Relaunched {
			b.WriteString(" relaunched")
		}
	case OpFetch:
		fmt.Fprintf(&b, " after %s", c.After)
		if c.Through != nil {
			fmt.Fprintf(&b, " through %s", *c.Through)
		}
		if c.Err == "" {
			fmt.Fprintf(&b, " current %s appliedPush %s rev %d", c.CurrentCursor, c.AppliedPushCursor, c.CurrentRev)
		}
	case OpStreamNext:
		if c.Entry != nil {
			fmt.Fprintf(&b, " entry %s", *c.Entry)
		}
		fmt.Fprintf(&b, " served %d", c.Entries)
		if c.EOF {
			b.WriteString(" eof")
		}
	case OpWatermarks:
		fmt.Fprintf(&b, " settle %t", c.Settle)
		if c.Err == "" {
			fmt.Fprintf(&b, " rev %d", c.CurrentRev)
		}
	case OpPush:
		fmt.Fprintf(&b, " sender %s changes %d", c.Sender, c.Changes)
		if c.Err == "" || c.Fault == TransportPostDispatch {
			fmt.Fprintf(&b, " applied %d appliedPush %s rev %d", c.Applied, c.AppliedPushCursor, c.CurrentRev)
		}
	case OpExec:
		fmt.Fprintf(&b, " %q", c.Command)
	case OpEventNext:
		if c.EOF {
			b.WriteString(" eof")
		} else if c.Err == "" {
			fmt.Fprintf(&b, " served %d", c.Entries)
		}
	}
	if c.Fault != NoFault {
		fmt.Fprintf(&b, " fault %s", c.Fault)
	}
	if c.Err != "" {
		fmt.Fprintf(&b, " err %q", c.Err)
	}
	return b.String()
}

// Record returns every call so far, in order.
func (c *Container) Record() []Call {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.record)
}

// Mark returns a cursor into the record: RecordSince(Mark()) later returns
// the calls made in between. The simulator takes one per operation.
func (c *Container) Mark() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.record)
}

// RecordSince returns the calls recorded after mark, in order.
func (c *Container) RecordSince(mark int) []Call {
	c.mu.Lock()
	defer c.mu.Unlock()
	mark = min(max(mark, 0), len(c.record))
	return slices.Clone(c.record[mark:])
}

// appendLocked stamps call with its sequence number and records it.
func (c *Container) appendLocked(call Call) {
	call.Seq = len(c.record) + 1
	c.record = append(c.record, call)
}

// PullRecord summarises one fetchChanges call and the reading of its
// stream, for a reference model that needs to know how a pull ended.
type PullRecord struct {
	FetchSeq     int // Seq of the fetch call
	Actor        string
	Conn         int
	RuntimeID    string // what the fetch's connection reported
	HasRuntimeID bool
	After        scheduler.Cursor
	Through      *scheduler.Cursor
	// CurrentCursor is the fetch's snapshot bound (zero if the fetch failed).
	CurrentCursor scheduler.Cursor
	// FetchErr is set when fetchChanges itself failed (no stream then).
	FetchErr   string
	FetchFault Kind
	// Entries served by the stream, and how reading it ended: EOF reached,
	// closed by the client before EOF, or failed (StreamErr, StreamFault).
	// None of the three means the stream is still open.
	Entries     int
	EOF         bool
	ClosedEarly bool
	StreamErr   string
	StreamFault Kind
}

// Pulls summarises every fetch actor made after mark, in order; an empty
// actor matches every actor.
func (c *Container) Pulls(mark int, actor string) []PullRecord {
	calls := c.RecordSince(mark)
	var out []PullRecord
	index := make(map[int]int) // stream id -> position in out
	for _, call := range calls {
		if actor != "" && call.Actor != actor {
			continue
		}
		switch call.Op {
		case OpFetch:
			pr := PullRecord{
				FetchSeq: call.Seq, Actor: call.Actor, Conn: call.Conn,
				RuntimeID: call.RuntimeID, HasRuntimeID: call.HasRuntimeID,
				After: call.After, Through: call.Through, CurrentCursor: call.CurrentCursor,
				FetchErr: call.Err, FetchFault: call.Fault,
			}
			if call.Stream != 0 {
				index[call.Stream] = len(out)
			}
			out = append(out, pr)
		case OpStreamNext, OpStreamClose:
			i, ok := index[call.Stream]
			if !ok {
				continue
			}
			pr := &out[i]
			if pr.EOF || pr.StreamErr != "" || pr.ClosedEarly {
				continue // the stream's ending is already known
			}
			switch {
			case call.Op == OpStreamClose:
				pr.ClosedEarly = true
			case call.Err != "":
				pr.StreamErr, pr.StreamFault = call.Err, call.Fault
			default:
				pr.Entries, pr.EOF = call.Entries, call.EOF
			}
		}
	}
	return out
}

// LastPull summarises the last fetch actor made (an empty actor matches
// every actor); ok is false when there was none.
func (c *Container) LastPull(actor string) (pr PullRecord, ok bool) {
	all := c.Pulls(0, actor)
	if len(all) == 0 {
		return PullRecord{}, false
	}
	return all[len(all)-1], true
}
