package sim

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/sim/event"
	"github.com/syncsim/syncsim/workspace"
)

var errNoLister = errors.New("sim: the scheduler store does not implement scheduler.Lister; the host needs it to set its alarm")

// judge appends one finished operation to the history: the checkers judge
// it there.
func (h *Host) judge(f finished) *Violation {
	calls := h.withLocalFaults(byActor(&h.records.actorCalls, h.recordSince(f.backend, f.marks[f.backend]), f.actor), f)
	if v := h.opReturned(f, calls); v != nil {
		return v
	}
	if h.ops.cancelled[f.actor] {
		return nil // parked before any call: property cancel's alone
	}
	if f.kind == "write" || f.kind == "delete" {
		h.ackWrite(f) // the workload's ledger; host-write is oracle.HostWriteChecker's
	}
	return nil
}

func describeRetry(r workspace.RetryResult, err error, start time.Time) []string {
	if err != nil {
		return []string{"rejected=" + oneWord(faults.PublicText(err))}
	}
	d := []string{"status=" + string(r.Status)}
	if r.Status == workspace.RetryPending || r.Status == workspace.RetryExhausted {
		d = append(d, "attempt="+strconv.Itoa(r.Attempt))
	}
	if r.Status == workspace.RetryPending {
		d = append(d, "notBefore="+event.Offset(r.NotBefore.Sub(start)))
	}
	if r.Status == workspace.RetryComplete {
		d = append(d, "applied="+strconv.Itoa(r.Applied))
	}
	if r.TargetCursor != nil {
		d = append(d, "target="+faults.CursorText(*r.TargetCursor))
	}
	if r.Cursor != nil {
		d = append(d, "cursor="+faults.CursorText(*r.Cursor))
	}
	if r.RuntimeID != nil {
		d = append(d, "runtime="+*r.RuntimeID)
	}
	if r.Error != "" {
		d = append(d, "error="+oneWord(faults.ScrubSecrets(r.Error)))
	}
	return d
}

func describeExec(r workspace.ExecResult, err error) []string {
	if err != nil {
		return []string{"error=" + oneWord(faults.PublicText(err))}
	}
	d := []string{"sync=" + string(r.Sync.Status), "exit=" + strconv.Itoa(r.ExitCode)}
	if r.Sync.Status == workspace.SyncComplete {
		d = append(d, "applied="+strconv.Itoa(r.Sync.Applied))
	}
	if r.Sync.TargetCursor != nil {
		d = append(d, "target="+faults.CursorText(*r.Sync.TargetCursor))
	}
	if r.Sync.RuntimeID != nil {
		d = append(d, "runtime="+*r.Sync.RuntimeID)
	}
	if r.Sync.Error != "" {
		d = append(d, "error="+oneWord(faults.ScrubSecrets(r.Sync.Error)))
	}
	return d
}

// oneWord quotes s so a trace detail stays one key=value field.
func oneWord(s string) string {
	s = strings.TrimSpace(s)
	if faults.QuotesAsIs(s) {
		return `"` + s + `"` // what strconv.Quote gives, without its walk over runes
	}
	return strconv.Quote(s)
}

func itoa(n int) string { return strconv.Itoa(n) }
