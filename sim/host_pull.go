package sim

import (
	"context"
	"fmt"
	"strconv"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/model"
	"github.com/syncsim/syncsim/workspace"
)

// An explicit Workspace.Pull (pullOnce, SPEC 6.3) before the tail. It
// touches no intent, so the model's table stays as it is; what it is held
// to comes from the runtime's record: the bound on connects, reading every
// stream to its end, Applied and the fetch cursor of a complete pull, the
// replay of a transport failure (policy always), and the class of the
// error it returns (error-class, host_errclass.go).

// SpawnPull starts an explicit Pull of backend b.
func (h *Host) SpawnPull(b int) {
	name := h.actorName("pull", b)
	h.event(name, "start", "op=pull")
	f := &finished{actor: name, kind: "pull", backend: b}
	h.spawnOp(f, func(ws *workspace.Workspace, ctx context.Context, id string) {
		f.pull, f.err = ws.Pull(ctx, id)
	}, nil)
}

// judgePull judges one finished Pull.
func (h *Host) judgePull(f finished, calls []faults.Call, store []model.StoreCall) *Violation {
	h.event(f.actor, "pull-result", describePull(f.pull, f.err)...)
	if len(store) > 0 {
		return h.fail("model", fmt.Sprintf("%s: an explicit pull never touches the intent store (SPEC 6.3), got %d calls: %v", f.actor, len(store), store))
	}
	want := h.pullErrClass(f, calls)
	h.stats.ExecSync["pull/"+want.name]++
	if v := h.judgeErrClass(f, want); v != nil {
		return v
	}
	if v := h.judgeRetriedWrapper(f, want, calls); v != nil {
		return v
	}
	if f.err != nil {
		return nil
	}
	if v := h.judgeSkipped(f, f.pull.Skipped, true); v != nil {
		return v
	}
	if v := h.judgeApplied(f, calls, f.pull.Applied); v != nil {
		return v
	}
	return h.judgeCompleteAtTarget(f, calls)
}

// pullErrClass predicts the error of an explicit pull from its record: none
// when its last pass completed, the cross-side assertion when the last fetch
// found the remote's applied-push cursor inside a revision
// (pullOnceTripsCrossSide), else the class of the failure that ended it.
func (h *Host) pullErrClass(f finished, calls []faults.Call) errWant {
	out := pullOutcome(calls, nil, h.budget(), wallBudget{}) // pullOnce has no budget
	switch out.Kind {
	case model.PullComplete:
		if trips, text := crossSideTrip(calls, h.takePushRevReads(f.actor)); trips {
			want := wantCrossSide
			want.text = text
			return want
		}
		return wantNone
	case model.PullFailed, model.PullLost:
		return h.failureClass(f, calls)
	}
	return errWant{name: "unknown"}
}

// tailPull is the first pull of the liveness tail: its error, and how far
// its backend's record had got when it returned.
type tailPull struct {
	err  error
	upTo int
}

// judgeTailPulls holds the liveness tail's first pull of each backend to
// error-class. That pull may fail (a crashed container may still refuse
// the connect), but not with any error: it is the first pullOnce after
// every fault, so a push the run left between two batches makes it trip
// the cross-side assertion (docs/SPEC.md 6.3 QUIRK), and that error must
// match ErrCrossSideInvariant.
func (h *Host) judgeTailPulls(names []string, from []int, pulls []tailPull) *Violation {
	var buf []faults.Call
	for i, c := range h.containers {
		calls := byActor(&buf, c.RecordView(from[i]), names[i])
		n := 0
		for n < len(calls) && calls[n].Seq <= pulls[i].upTo {
			n++
		}
		f := finished{actor: names[i], kind: "pull", backend: i, err: pulls[i].err, marks: from}
		want := h.pullErrClass(f, calls[:n])
		h.stats.ExecSync["tail-pull/"+want.name]++
		if v := h.judgeErrClass(f, want); v != nil {
			return v
		}
		if v := h.judgeRetriedWrapper(f, want, calls[:n]); v != nil {
			return v
		}
		// Both tail pulls (the push between them applies nothing).
		if v := h.judgeApplyBatches(names[i], i, calls, pullApplyBatch); v != nil {
			return v
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
