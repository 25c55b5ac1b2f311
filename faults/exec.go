package faults

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/syncsim/syncsim/workspace"
)

// maxWritesPerCommand bounds `write <n>`.
const maxWritesPerCommand = 1000

// maxFileBytes bounds the size of `write <n> <bytes>`.
const maxFileBytes = 16 << 20

// Exec runs command at spawn time and returns its event stream: one stdout
// (or stderr) event, then the exit event. Faults, in draw order:
// transport-pre-dispatch (nothing ran), transport-post-dispatch (the
// command ran, its writes happened, the reply is lost), and
// transport-mid-stream (the event stream fails after k of its 2 events).
func (cn *conn) Exec(ctx context.Context, command string) (workspace.EventStream, error) {
	c := cn.c
	actor := c.enter(OpExec)
	defer c.leave(OpExec)
	defer c.mu.Unlock()
	call := cn.call(actor, OpExec)
	call.Command = command
	if err := cn.usableLocked(ctx); err != nil {
		return nil, cn.failLocked(call, err, NoFault)
	}
	if err := cn.eventArmLocked(&call, SiteExec); err != nil {
		return nil, err
	}
	if fire, armed := c.faultLocked(SiteExec, TransportPreDispatch); fire {
		call.Armed = armed
		return nil, cn.failLocked(call, cn.c.secrets.injected(TransportPreDispatch, msgPreDispatch), TransportPreDispatch)
	}
	c.execSeq++
	out, code, writes := c.runLocked(command)
	if c.execsBy == nil {
		c.execsBy = make(map[string][]int)
	}
	c.execsBy[actor] = append(c.execsBy[actor], len(c.execs))
	c.execs = append(c.execs, Execution{
		Seq: c.execSeq, Actor: actor, Conn: cn.id, RuntimeID: cn.runtime, Process: c.process,
		Command: command, ExitCode: code, Writes: writes,
	})
	c.streams++
	call.Stream = c.streams
	if fire, armed := c.faultLocked(SiteExec, TransportPostDispatch); fire {
		call.Armed = armed
		return nil, cn.failLocked(call, cn.c.secrets.injected(TransportPostDispatch, msgPostDispatch), TransportPostDispatch)
	}
	es := &eventStream{cn: cn, id: c.streams, failAt: -1, events: []workspace.Event{out, {Kind: workspace.EventExit, ExitCode: code}}}
	if a, ok := c.takeStreamArmLocked(SiteEvents); ok {
		es.arm = streamArm{set: true, Armed: a}
	} else if c.drawLocked(TransportMidStream) {
		es.failAt = c.rng.IntN(len(es.events))
	}
	c.appendLocked(call)
	return es, nil
}

// outPath is the path of the i-th file the current exec writes or stages.
// (Built by hand, not fmt: a burst writes many.)
func (c *Container) outPath(i int) string {
	return "/out/" + strconv.Itoa(c.execSeq) + "-" + strconv.Itoa(i)
}

// outContent is what the current exec writes to its i-th file.
func (c *Container) outContent(i int) string {
	return c.process + " exec " + strconv.Itoa(c.execSeq) + " file " + strconv.Itoa(i) + "\n"
}

// padded is content cut or padded with a filler to exactly size bytes; a
// negative size leaves it as it is. A big write's files are megabytes each
// and the container keeps what it builds, so it is built once, by
// bytes.Repeat: into a buffer that is not cleared first (make's zeroing
// was a fifth of the cost) and from a source that stays in the L1 cache
// (copying from the doubling stretch already filled read megabytes back).
func padded(content string, size int) []byte {
	switch {
	case size < 0:
		return []byte(content)
	case len(content) >= size:
		return []byte(content[:size])
	}
	const filler = "0123456789abcdef"
	// The filler runs from its start after the content: repeat it rotated
	// so that its start falls at len(content), then write the content over
	// the head.
	k := len(content) % len(filler)
	unit := filler[len(filler)-k:] + filler[:len(filler)-k]
	b := bytes.Repeat([]byte(unit), (size+len(filler)-1)/len(filler))
	copy(b, content)
	return b[:size:size]
}

// runLocked interprets one command of the grammar in doc.go and returns
// its output event, exit code and number of writes.
func (c *Container) runLocked(command string) (out workspace.Event, code, writes int) {
	if body, status, ok := strings.Cut(command, "; exit "); ok {
		out, code, writes = c.runLocked(body)
		n, err := strconv.Atoi(status)
		if err != nil || n < 0 || n > 255 {
			return workspace.Event{Kind: workspace.EventStderr, Data: fmt.Sprintf("exit: bad code %q\n", status)}, 2, writes
		}
		if code == 0 {
			code = n
		}
		return out, code, writes
	}
	fields := strings.Fields(command)
	stdout := func(format string, args ...any) workspace.Event {
		return workspace.Event{Kind: workspace.EventStdout, Data: fmt.Sprintf(format, args...)}
	}
	stderr := func(format string, args ...any) workspace.Event {
		return workspace.Event{Kind: workspace.EventStderr, Data: fmt.Sprintf(format, args...)}
	}
	if len(fields) == 0 {
		return stderr("empty command\n"), 127, 0
	}
	arg := strings.Join(fields[1:], " ")
	switch fields[0] {
	case "true":
		return stdout(""), 0, 0
	case "exit":
		n, err := strconv.Atoi(arg)
		if err != nil || n < 0 || n > 255 {
			return stderr("exit: bad code %q\n", arg), 2, 0
		}
		return stdout(""), n, 0
	case "stage":
		n, err := strconv.Atoi(arg)
		if err != nil || n < 0 || n > maxWritesPerCommand {
			return stderr("stage: want a count in [0,%d], got %q\n", maxWritesPerCommand, arg), 2, 0
		}
		for i := range n {
			c.staged = append(c.staged, stagedWrite{
				path:    c.outPath(i),
				content: c.outContent(i),
			})
		}
		return stdout("staged %d files\n", n), 0, 0
	case "write":
		w, err := parseWrite(fields[1:])
		if err != nil {
			return stderr("write: %v\n", err), 2, 0
		}
		edits := c.editTargetsLocked(w.rewrite + w.delete)
		n := w.files + len(edits)
		if w.twins {
			n += len(twinNames)
		}
		if n == 0 {
			return stdout("wrote 0 files\n"), 0, 0
		}
		// One mutation: every file the command touches shares one new rev,
		// so streams hold several paths per rev (deletes among them) and
		// cursors resume inside a rev by path.
		c.currentRev++
		for i := range w.files {
			c.stampLocked(c.outPath(i), padded(c.outContent(i), w.size), false)
		}
		if w.twins {
			for _, t := range twinNames {
				p := "/out/" + strconv.Itoa(c.execSeq) + "-" + t
				c.stampLocked(p, []byte(c.process+" exec "+strconv.Itoa(c.execSeq)+" file "+t+"\n"), false)
			}
		}
		rewrote := min(w.rewrite, len(edits))
		for _, p := range edits[:rewrote] {
			c.stampLocked(p, []byte(c.process+" exec "+strconv.Itoa(c.execSeq)+" rewrite "+p+"\n"), false)
		}
		for _, p := range edits[rewrote:] {
			c.stampLocked(p, nil, true)
		}
		if !w.edits() {
			return stdout("wrote %d files\n", n), 0, n
		}
		return stdout("wrote %d files, rewrote %d, deleted %d\n", n-len(edits), rewrote, len(edits)-rewrote), 0, n
	case "put":
		if len(fields) != 2 {
			return stderr("put: want one path\n"), 2, 0
		}
		c.writeLocked(fields[1], fmt.Sprintf("%s exec %d put\n", c.process, c.execSeq), false)
		return stdout("put %s\n", fields[1]), 0, 1
	case "delete":
		if len(fields) != 2 {
			return stderr("delete: want one path\n"), 2, 0
		}
		if f, ok := c.files[fields[1]]; !ok || f.deleted {
			return stderr("delete: %s: no such file\n", fields[1]), 1, 0
		}
		c.writeLocked(fields[1], "", true)
		return stdout("deleted %s\n", fields[1]), 0, 1
	}
	return stderr("%s: command not found\n", fields[0]), 127, 0
}

// stagedWrite is a file a `stage` command wrote that the remote's store has
// not taken in yet: it becomes visible when the pre-fetch reconcile hook
// runs (settleLocked).
type stagedWrite struct {
	path, content string
}

// settleLocked is the remote's pre-fetch reconcile hook (SPEC 3.3 step 7:
// watermarks{settle:true} runs it first; so does fetchChanges): the staged
// writes become one mutation, one new rev. Without staged writes it does
// nothing.
func (c *Container) settleLocked() {
	if len(c.staged) == 0 {
		return
	}
	c.currentRev++
	for _, w := range c.staged {
		c.stampLocked(w.path, []byte(w.content), false)
	}
	c.staged = nil
}

// writeLocked makes one container-side mutation of one path: one new rev
// (SPEC 6.1).
func (c *Container) writeLocked(path, content string, deleted bool) {
	c.currentRev++
	c.stampLocked(path, []byte(content), deleted)
}

// stampLocked sets path's state at the current rev.
func (c *Container) stampLocked(path string, content []byte, deleted bool) {
	f := &remoteFile{deleted: deleted, rev: c.currentRev}
	if !deleted {
		f.content = content
	}
	c.setFileLocked(path, f)
	c.writes++
}

// eventStream is a command's event stream.
type eventStream struct {
	cn     *conn
	id     int
	events []workspace.Event
	served int
	failAt int // fail instead of serving event failAt; -1 never
	arm    streamArm
	closed bool
}

var _ workspace.EventStream = (*eventStream)(nil)

// Next serves the next event, io.EOF after the exit event, or the armed
// mid-stream failure (which breaks the connection).
func (es *eventStream) Next(ctx context.Context) (workspace.Event, error) {
	cn := es.cn
	c := cn.c
	call, err := cn.nextCall(ctx, OpEventNext, es.id, &es.served, &es.closed)
	defer c.leave(OpEventNext)
	defer c.mu.Unlock()
	if err != nil {
		return workspace.Event{}, err
	}
	if es.failAt == es.served {
		es.failAt = -1
		return workspace.Event{}, cn.failLocked(call, c.secrets.injected(TransportMidStream, msgMidStream), TransportMidStream)
	}
	if es.arm.due(es.served, es.served < len(es.events)) {
		a := es.arm.Armed
		es.arm = streamArm{}
		call.Fault, call.Armed = a.Kind, true
		if err := c.fireStreamLocked(a); err != nil {
			return workspace.Event{}, cn.failLocked(call, err, a.Kind)
		}
	}
	if es.served == len(es.events) {
		call.EOF = true
		c.appendLocked(call)
		return workspace.Event{}, io.EOF
	}
	ev := es.events[es.served]
	es.served++
	call.Entries, call.ExitCode = es.served, ev.ExitCode
	c.appendLocked(call)
	return ev, nil
}

// Close cancels the stream upstream; it may be called more than once.
func (es *eventStream) Close() error {
	c := es.cn.c
	actor := c.enter(OpEventClose)
	defer c.leave(OpEventClose)
	defer c.mu.Unlock()
	call := es.cn.call(actor, OpEventClose)
	call.Stream, call.Entries = es.id, es.served
	es.closed = true
	c.appendLocked(call)
	return nil
}
