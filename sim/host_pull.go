package sim

import (
	"context"
	"strconv"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/sim/history"
	"github.com/syncsim/syncsim/workspace"
)

// An explicit Workspace.Pull (pullOnce, SPEC 6.3) before the tail. It
// touches no intent, so the model's table stays as it is; what it is held
// to comes from the runtime's record: the bound on connects, reading every
// stream to its end, Applied and the fetch cursor of a complete pull, the
// replay of a transport failure (policy always), and the class of the
// error it returns (error-class, oracle.ModelChecker).

// SpawnPull starts an explicit Pull of backend b.
func (h *Host) SpawnPull(b int) {
	name := h.actorName("pull", b)
	h.event(name, "start", "op=pull")
	f := &finished{actor: name, kind: "pull", backend: b}
	h.spawnOp(f, func(ws *workspace.Workspace, ctx context.Context, id string) {
		f.pull, f.err = ws.Pull(ctx, id)
	}, nil)
}

// tailPull is the first pull of the liveness tail: its error, and how far
// its backend's record had got when it returned.
type tailPull struct {
	err  error
	upTo int
}

// judgeTailPulls appends the liveness tail's first pull of each backend
// to the history as an operation of kind "tail-pull" (its calls up to its
// return; the model family holds its error to its class). The applies of
// both tail pulls are apply-batch's, at the tail's TailReturned.
func (h *Host) judgeTailPulls(names []string, from []int, pulls []tailPull) *Violation {
	var buf []faults.Call
	for i, c := range h.backends.containers {
		calls := byActor(&buf, c.RecordView(from[i]), names[i])
		n := 0
		for n < len(calls) && calls[n].Seq <= pulls[i].upTo {
			n++
		}
		h.appendEvent(history.Event{Kind: history.OpReturned, Actor: names[i], Backend: i, Op: &history.Op{
			Kind: "tail-pull", Err: pulls[i].err, Calls: calls[:n], StepMarks: from,
			StoreMark: h.stores.sched.Mark(), PushRevReads: h.takePushRevReads(names[i]),
		}})
		if h.violated != nil {
			return h.violated
		}
	}
	return nil
}

func describePull(r workspace.PullResult, err error) []string {
	if err != nil {
		return []string{"error=" + oneWord(faults.PublicText(err))}
	}
	return []string{"applied=" + strconv.Itoa(r.Applied)}
}
