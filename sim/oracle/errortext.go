package oracle

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/model"
	"github.com/syncsim/syncsim/sim/history"
)

// Property error-text: SPEC 5.2's reconnect wrappers name the backend and
// the operation in a fixed form. An error a retry or a command reports that
// is such a wrapper ("Workspace backend " at its start) must read
//
//	Workspace backend <id as a JSON string>: <operation> failed after 1 reconnect retry: initial=
//	Workspace backend <id as a JSON string>: <operation> transport failed; the command may have started and was not replayed:
//
// with the backend's configured id (also for a call that named the default
// backend by ""), quoted as JSON quotes it — a backslash and a quote
// escaped, and nothing else among the characters drawn ids hold: <, > and
// & stay as they are (an HTML-safe encoder would escape them) — and one of
// the operations the SPEC names. The quoting is written here from the
// JSON grammar, never taken from the workspace's helper.

// wrapperHead starts every reconnect wrapper's message.
const wrapperHead = "Workspace backend "

// wrapperOps are the operation names SPEC 5.2's callers pass, and
// wrapperTails the two endings of the wrapper's head.
var (
	wrapperOps   = []string{"shell.exec", "pullBatch", "push", "pull"}
	wrapperTails = []string{
		" failed after 1 reconnect retry: initial=",
		" transport failed; the command may have started and was not replayed: ",
	}
)

// judgeErrorText is property error-text for finished operation f.
func (c *ModelChecker) judgeErrorText(e *history.Event) bool {
	what, text := ResultError(e.Op)
	if e.Op.Kind == "pull" && e.Op.Err != nil {
		what, text = "pull error", e.Op.Err.Error()
	}
	if !strings.HasPrefix(text, wrapperHead) {
		return false
	}
	id := jsonQuote(c.setup.Backends[e.Backend])
	rest, ok := strings.CutPrefix(text[len(wrapperHead):], id+": ")
	if ok {
		for _, op := range wrapperOps {
			after, found := strings.CutPrefix(rest, op)
			if !found {
				continue
			}
			for _, tail := range wrapperTails {
				if strings.HasPrefix(after, tail) {
					c.reach("error-text-judged")
					if strings.ContainsAny(c.setup.Backends[e.Backend], `\"<>&`) {
						c.reach("error-text-escaped-id") // reachability: the quoting is told apart
					}
					return false
				}
			}
		}
	}
	return c.fail("error-text", fmt.Sprintf("%s: %s of %s is a reconnect wrapper whose head is not %s%s: <operation> and one of %q (SPEC 5.2), got %q",
		e.Actor, what, c.setup.Backends[e.Backend], wrapperHead, id, wrapperTails, text))
}

// jsonShort are the control characters JSON writes by a letter.
var jsonShort = map[rune]string{'\b': `\b`, '\f': `\f`, '\n': `\n`, '\r': `\r`, '\t': `\t`}

// jsonQuote is s as a JSON string (RFC 8259 section 7, as JSON.stringify
// writes it): quotation mark, reverse solidus and the control characters
// escaped, everything else as it is. The ids the harness draws hold no
// control character, and no U+2028 or U+2029 (which Go's encoder would
// escape too): they are spaces to ValidBackendIDs.
func jsonQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case jsonShort[r] != "":
			b.WriteString(jsonShort[r])
		case r < 0x20:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// judgeRetriedWrapper is error-text's predicted side for a pull whose
// record says a transport failure ended it (error-class's wantTransport):
// under the policy "always" the first pass's transport failure was
// replayed, so the second pass failed too, and the error is SPEC 5.2 step
// 4's wrapper, "Workspace backend <id>: pull failed after 1 reconnect
// retry: initial=<first>; last=<last>".
//
// When calls (the pull's own, teardown included) show both passes'
// failures, the whole message is predicted too: initial= the first pass's
// failure as SPEC 1.4 makes it safe, cut to 160 UTF-16 code units, then
// "; last=" and the second's cut to 240 (predictWrapperBody).
func (c *ModelChecker) judgeRetriedWrapper(e *history.Event, want errWant) bool {
	calls := e.Op.Calls
	if want.name != wantTransport.name || e.Op.Err == nil || e.Op.CancelHit {
		return false
	}
	head := wrapperHead + jsonQuote(c.setup.Backends[e.Backend]) + ": pull" + wrapperTails[0]
	text := e.Op.Err.Error()
	if !strings.HasPrefix(text, head) {
		return c.fail("error-text", fmt.Sprintf("%s: a transport failure ended the pull on both passes (the record), so its error must start %q (SPEC 5.2 step 4), got %q",
			e.Actor, head, text))
	}
	c.reach("error-text-predicted")
	body, ok := predictWrapperBody(calls)
	if !ok {
		return false
	}
	if wantText := head + body; text != wantText {
		return c.fail("error-text", fmt.Sprintf("%s: both passes failed (the record: first %q, last %q), so the error must read %q (SPEC 5.2 step 4: initial= the first cut to 160 UTF-16 units, last= the last cut to 240), got %q",
			e.Actor, calls[firstFailure(calls, len(calls))].Err, calls[lastFailure(calls)].Err, wantText, text))
	}
	c.reach("error-text-body")
	return false
}

// lastFailure is the index in calls of the last failed call that is not a
// teardown, or -1.
func lastFailure(calls []faults.Call) int {
	for i := len(calls) - 1; i >= 0; i-- {
		if calls[i].Err != "" && !cleanup(calls[i].Op) {
			return i
		}
	}
	return -1
}

// predictWrapperBody is the text after "initial=" of SPEC 5.2 step 4's
// wrapper for a pull whose calls end in two failed passes: each pass ends
// at its first failure (runWithReconnect returns there), so the first
// failed call is the first pass's and the last the second's; each text is
// SPEC 1.4's safe form of the recorded message (SafeText). The
// record scrubs a planted credential to a marker: where redaction takes
// the credential's value, the marker goes with it and the prediction is
// the workspace's; where the marker would survive inside the cut, the
// credential would have too, which is secrecy's to judge, so ok is false
// (as when the two failures are one call, or a text is not UTF-8).
func predictWrapperBody(calls []faults.Call) (string, bool) {
	i, j := firstFailure(calls, len(calls)), lastFailure(calls)
	if i < 0 || i == j {
		return "", false
	}
	first, okFirst := safeCut(calls[i].Err, 160)
	last, okLast := safeCut(calls[j].Err, 240)
	return first + "; last=" + last, okFirst && okLast
}

// judgeExecWrapper is error-text's predicted side for an exec that a
// transport failure ended before its command ran (error-class's transport,
// by the record; calls are the exec's own). Under the policy "pre-dispatch"
// (SPEC 5.2):
//
//   - a spawn that failed after it may have been dispatched is not
//     replayed: the error is step 3's wrapper, "Workspace backend <id>:
//     shell.exec transport failed; the command may have started and was
//     not replayed: " and the failure made safe, cut to 240 UTF-16 units;
//   - a failure that was replayed and failed again ends with step 4's
//     wrapper, whose body is predicted as a pull's when neither failure is
//     the pre-exec push's (the workspace re-wraps that one in a message of
//     its own, which the SPEC does not fix).
func (c *ModelChecker) judgeExecWrapper(e *history.Event, want errWant) bool {
	calls := e.Op.Calls
	if want.name != wantTransport.name || e.Op.Err == nil || e.Op.CancelHit {
		return false
	}
	i, j := firstFailure(calls, len(calls)), lastFailure(calls)
	if j < 0 {
		return false
	}
	last := calls[j]
	head := wrapperHead + jsonQuote(c.setup.Backends[e.Backend]) + ": shell.exec"
	var wantText string
	switch {
	case last.Op == faults.OpExec && last.Transport && !last.PreDispatch:
		msg, ok := safeCut(last.Err, 240)
		if !ok {
			return false
		}
		wantText = head + wrapperTails[1] + msg
	case i != j && calls[i].Op != faults.OpPush && last.Op != faults.OpPush:
		body, ok := predictWrapperBody(calls)
		if !ok {
			return false
		}
		wantText = head + wrapperTails[0] + body
	default:
		return false
	}
	if text := e.Op.Err.Error(); text != wantText {
		return c.fail("error-text", fmt.Sprintf("%s: a transport failure ended the exec before its command ran (the record: #%d %s failed with %q), so its error must read %q (SPEC 5.2 steps 3 and 4), got %q",
			e.Actor, last.Seq, last.Op, last.Err, wantText, text))
	}
	c.reach("error-text-exec")
	return false
}

// safeCut is a recorded failure's text made safe (SafeText) and cut
// to n UTF-16 units; ok is false when it is not UTF-8 or a scrubbed
// credential survives the redaction inside the cut (secrecy's case).
func safeCut(recorded string, n int) (string, bool) {
	if !utf8.ValidString(recorded) {
		return "", false
	}
	out := CutUTF16(SafeText(recorded), n)
	return out, !strings.Contains(out, "[planted]")
}

// judgeRetryWrapper is error-text's predicted side for a retry whose pull
// failed (the model's pending failure branch, or exhausted after a pull)
// with a transport failure on both passes, by the record: its result's
// error is SPEC 5.2 step 4's wrapper for the operation "pullBatch" (SPEC
// 4.1), body predicted as a pull's, the whole made safe once more by SPEC
// 1.4 as every result error is.
func (c *ModelChecker) judgeRetryWrapper(e *history.Event, want model.RetryResult, pull model.Pull) bool {
	calls := e.Op.Calls
	failed := want.Status == "pending" && !want.Progress || want.Status == "exhausted" && want.Pulled
	if !failed || pull.Kind != model.PullFailed {
		return false
	}
	return c.judgeResultWrapper(e, calls, "pullBatch", "the retry's pull", want.Status+" result's error", e.Op.Retry.Error, "error-text-retry")
}

// judgeWaitSyncWrapper is error-text's predicted side for a wait-mode exec
// whose post-command pull (post: its calls after the command's stream
// ended) failed by transport on both passes, by the record: the exec's
// sync result carries SPEC 5.2 step 4's wrapper for the operation "pull"
// (the post-exec pull is a pull, SPEC 5.1), made safe once more (SPEC 1.4).
func (c *ModelChecker) judgeWaitSyncWrapper(e *history.Event, post []faults.Call, pull model.Pull) bool {
	if pull.Kind != model.PullFailed {
		return false
	}
	return c.judgeResultWrapper(e, post, "pull", "the post-command pull", "exec's sync error", e.Op.Exec.Sync.Error, "error-text-wait-sync")
}

// judgeResultWrapper holds got, the error a result carries after a pull
// (calls: the pull's own) failed by transport on both passes, to SPEC 5.2
// step 4's wrapper for operation, made safe once more (SPEC 1.4). reach
// counts the results judged.
func (c *ModelChecker) judgeResultWrapper(e *history.Event, calls []faults.Call, operation, pullName, resultName, got, reach string) bool {
	if e.Op.Err != nil || e.Op.CancelHit || c.otherConnect(e) {
		return false
	}
	j := lastFailure(calls)
	if j < 0 || reconnectedClass(calls[j]).name != wantTransport.name {
		return false
	}
	body, ok := predictWrapperBody(calls)
	if !ok {
		return false
	}
	wantText := SafeText(wrapperHead + jsonQuote(c.setup.Backends[e.Backend]) + ": " + operation + wrapperTails[0] + body)
	if got != wantText {
		return c.fail("error-text", fmt.Sprintf("%s: %s failed by transport on both passes (the record: first %q, last %q), so the %s must read %q (SPEC 5.2 step 4, 1.4), got %q",
			e.Actor, pullName, calls[firstFailure(calls, len(calls))].Err, calls[j].Err, resultName, wantText, got))
	}
	c.reach(reach)
	return false
}

// ResultError is the error text a finished operation's result carries,
// and what it is called in a report: a retry's or an exec sync result's
// Error ("" for other kinds).
func ResultError(op *history.Op) (what, text string) {
	switch op.Kind {
	case "retry":
		return "retry result error", op.Retry.Error
	case "exec":
		return "exec sync result error", op.Exec.Sync.Error
	}
	return "", ""
}
