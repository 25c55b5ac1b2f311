package oracle

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/model"
)

// TestJSONQuoteMatchesEncoder: the judge's own JSON quoting (error-text)
// writes what encoding/json writes with HTML escaping off, for every id
// shape the harness draws and for the characters JSON treats apart.
func TestJSONQuoteMatchesEncoder(t *testing.T) {
	for _, s := range []string{"b0", `b\<&>1`, "后端2", "𝔟𝔞𝔠𝔨3", "ǅ4", "a\"b", "tab\there", "nl\nx", "bell\x07", "plain"} {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		if want, got := strings.TrimSuffix(b.String(), "\n"), jsonQuote(s); got != want {
			t.Errorf("jsonQuote(%q) = %s, encoding/json writes %s", s, got, want)
		}
	}
}

// TestErrorTextRule: a retry's reconnect wrapper must quote the backend's
// id as JSON does and name an operation and an ending the SPEC gives.
func TestErrorTextRule(t *testing.T) {
	const id = `b\<&>0`
	for _, tc := range []struct {
		text string
		ok   bool
	}{
		{`Workspace backend "b\\<&>0": pullBatch failed after 1 reconnect retry: initial=x; last=y`, true},
		{`Workspace backend "b\\<&>0": shell.exec transport failed; the command may have started and was not replayed: x`, true},
		{`some other error naming no backend`, true},
		{`Workspace backend "b\<&>0": pullBatch failed after 1 reconnect retry: initial=x; last=y`, false},         // backslash not escaped
		{`Workspace backend "b\\\u003c\u0026\u003e0": pullBatch failed after 1 reconnect retry: initial=x`, false}, // HTML-safe
		{`Workspace backend "b\\<&>0": fetch failed after 1 reconnect retry: initial=x`, false},                    // no such operation
		{`Workspace backend "b\\<&>0": pull failed after one reconnect retry: initial=x`, false},                   // another ending
	} {
		m := newModelHarness(id)
		e := opEvent("#1.retry.b0", "retry", nil)
		e.Op.Retry.Error = tc.text
		got := m.verdict(t, m.judgeErrorText(e))
		if (got == "") != tc.ok {
			t.Errorf("%q: expected ok %t, got %v", tc.text, tc.ok, m.reports.violations)
		}
		if got != "" && got != "error-text" {
			t.Errorf("%q: expected property error-text, got %s", tc.text, got)
		}
	}
}

// TestRetriedWrapperRule: a pull that a transport failure ended (by the
// record: error-class's transport) failed on both passes under the policy
// "always", so its error is SPEC 5.2 step 4's wrapper; another class, no
// error, or a cancelled pull is not held to it.
func TestRetriedWrapperRule(t *testing.T) {
	wrapped := errors.New(`Workspace backend "b0": pull failed after 1 reconnect retry: initial=a; last=b`)
	bare := errors.New("injected transport-mid-stream: the peer went away")
	for _, tc := range []struct {
		name string
		want errWant
		err  error
		ok   bool
	}{
		{"wrapped", wantTransport, wrapped, true},
		{"last error only", wantTransport, bare, false},
		{"not replayed form", wantTransport, errors.New(`Workspace backend "b0": pull transport failed; the command may have started and was not replayed: x`), false},
		{"injected class", wantInjected, bare, true},
		{"no error", wantTransport, nil, true},
	} {
		e := opEvent("#1.pull.b0", "pull", nil)
		e.Op.Err = tc.err
		judgeErrorTextOf(t, tc.name, tc.ok, func(m *modelHarness) bool { return m.judgeRetriedWrapper(e, tc.want) })
	}
}

// TestRetriedWrapperBody: with both passes' failures in the record and
// nothing for redaction to change, the whole wrapper is predicted:
// initial= the first failure cut to 160 UTF-16 units, last= the second cut
// to 240, both made safe (control characters as spaces, credentials
// redacted); cuts at other lengths, the two swapped, a cut in bytes or an
// unredacted text are violations. A recorded credential that SPEC 1.4
// would not redact (secrecy's case) leaves the body unjudged.
func TestRetriedWrapperBody(t *testing.T) {
	long := strings.Repeat("layer: ", 40) + "websocket closed"
	astral := strings.Repeat("x", 159) + "\U0001F600tail" // the emoji straddles unit 160
	head := `Workspace backend "b0": pull failed after 1 reconnect retry: initial=`
	call := func(op faults.Op, err string) faults.Call {
		return faults.Call{Actor: "#1.pull.b0", Op: op, Err: err, Transport: err != ""}
	}
	two := func(first, last string) []faults.Call {
		return []faults.Call{call(faults.OpConnect, ""), call(faults.OpFetch, first), {Op: faults.OpClose, Err: "closed"},
			call(faults.OpConnect, ""), call(faults.OpFetch, last), {Op: faults.OpStreamClose, Err: "closed"}}
	}
	for _, tc := range []struct {
		name  string
		calls []faults.Call
		text  string
		ok    bool
	}{
		{"exact", two("socket hang up", "econnreset"), head + "socket hang up; last=econnreset", true},
		{"cut at 160 and 240", two(long, long), head + long[:160] + "; last=" + long[:240], true},
		{"first cut at 240", two(long, long), head + long[:240] + "; last=" + long[:240], false},
		{"last cut at 160", two(long, long), head + long[:160] + "; last=" + long[:160], false},
		{"swapped", two("socket hang up", "econnreset"), head + "econnreset; last=socket hang up", false},
		{"last only", two("socket hang up", "econnreset"), head + "econnreset; last=econnreset", false},
		{"control characters as spaces", two("a\tb\x7fc", "d\ne"), head + "a b c; last=d e", true},
		{"control characters kept", two("a\tb", "d"), head + "a\tb; last=d", false},
		{"astral across the cut dropped whole", two(astral, "x"), head + strings.Repeat("x", 159) + "; last=x", true},
		{"cut in bytes", two(astral, "x"), head + astral[:160] + "; last=x", false},
		{"credential redacted", two("cookie=[planted] gone", "x"), head + "cookie=[REDACTED] gone; last=x", true},
		{"credential left as recorded", two("cookie=[planted] gone", "x"), head + "cookie=[planted] gone; last=x", false},
		{"bearer redacted", two("x", "Bearer\u2000abc;rest"), head + "x; last=Bearer [REDACTED];rest", true},
		{"first not redacted", two("token=abc", "x"), head + "token=abc; last=x", false},
		{"credential past redaction unjudged", two("xcookie=[planted]", "x"), head + "anything; last=x", true},
		{"one failure unjudged", []faults.Call{call(faults.OpFetch, "x")}, head + "y; last=z", true},
	} {
		e := opEvent("#1.pull.b0", "pull", tc.calls)
		e.Op.Err = errors.New(tc.text)
		judgeErrorTextOf(t, tc.name, tc.ok, func(m *modelHarness) bool { return m.judgeRetriedWrapper(e, wantTransport) })
	}
}

// TestExecWrapperRule: an exec that a transport failure ended before its
// command ran reports SPEC 5.2 step 3's wrapper when its spawn failed after
// it may have been dispatched (the failure made safe, cut to 240 units),
// and step 4's when a replayed failure failed again; a replay that began
// at the pre-exec push (re-wrapped in a message the SPEC does not fix) is
// not held to a body.
func TestExecWrapperRule(t *testing.T) {
	long := strings.Repeat("layer: ", 40) + "websocket closed"
	notReplayed := `Workspace backend "b0": shell.exec transport failed; the command may have started and was not replayed: `
	retried := `Workspace backend "b0": shell.exec failed after 1 reconnect retry: initial=`
	call := func(op faults.Op, err string, pre bool) faults.Call {
		return faults.Call{Actor: "#1.exec.b0", Op: op, Err: err, Transport: err != "", PreDispatch: pre}
	}
	spawnFailed := []faults.Call{call(faults.OpConnect, "", false), call(faults.OpExec, long, false)}
	twoConnects := []faults.Call{call(faults.OpConnect, "connection refused", false), call(faults.OpConnect, "econnreset", false)}
	pushFirst := []faults.Call{call(faults.OpPush, "socket hang up", false), call(faults.OpConnect, "econnreset", false)}
	for _, tc := range []struct {
		name  string
		calls []faults.Call
		text  string
		ok    bool
	}{
		{"not replayed", spawnFailed, notReplayed + long[:240], true},
		{"not replayed cut at 160", spawnFailed, notReplayed + long[:160], false},
		{"not replayed as retried", spawnFailed, retried + long[:160] + "; last=" + long[:240], false},
		{"retried", twoConnects, retried + "connection refused; last=econnreset", true},
		{"retried swapped", twoConnects, retried + "econnreset; last=connection refused", false},
		{"pre-dispatch spawn retried", []faults.Call{call(faults.OpExec, "rpc session was shut down", true), call(faults.OpExec, "rpc session was shut down", true)},
			retried + "rpc session was shut down; last=rpc session was shut down", true},
		{"push re-wrapped unjudged", pushFirst, retried + "pre-exec push failed: socket hang up; last=econnreset", true},
	} {
		e := opEvent("#1.exec.b0", "exec", tc.calls)
		e.Op.Err = errors.New(tc.text)
		judgeErrorTextOf(t, tc.name, tc.ok, func(m *modelHarness) bool { return m.judgeExecWrapper(e, wantTransport) })
	}
}

// TestRetryWrapperRule: a retry whose pull failed by transport on both
// passes reports step 4's wrapper for "pullBatch" in its result, made safe
// once more (a second redaction may take the "; " after a credential);
// progress, a pull that did not fail, or a last failure that is not a
// transport failure are not held to it.
func TestRetryWrapperRule(t *testing.T) {
	head := `Workspace backend "b0": pullBatch failed after 1 reconnect retry: initial=`
	call := func(op faults.Op, err string) faults.Call {
		return faults.Call{Actor: "#1.retry.b0", Op: op, Err: err, Transport: err != ""}
	}
	both := []faults.Call{call(faults.OpFetch, "socket hang up"), call(faults.OpConnect, ""), call(faults.OpFetch, "econnreset")}
	secret := []faults.Call{call(faults.OpFetch, "x; apikey=[planted]; y"), call(faults.OpFetch, "econnreset")}
	pending := model.RetryResult{Status: "pending", Pulled: true}
	failed := model.Pull{Kind: model.PullFailed}
	for _, tc := range []struct {
		name  string
		calls []faults.Call
		want  model.RetryResult
		pull  model.Pull
		text  string
		ok    bool
	}{
		{"pending", both, pending, failed, head + "socket hang up; last=econnreset", true},
		{"named pull", both, pending, failed, `Workspace backend "b0": pull failed after 1 reconnect retry: initial=socket hang up; last=econnreset`, false},
		{"exhausted", both, model.RetryResult{Status: "exhausted", Pulled: true}, failed, head + "socket hang up; last=econnreset", true},
		{"made safe twice", secret, pending, failed, head + "x; apikey=[REDACTED] y; last=econnreset", true},
		{"made safe once", secret, pending, failed, head + "x; apikey=[REDACTED]; y; last=econnreset", false},
		{"progress", both, model.RetryResult{Status: "pending", Progress: true}, model.Pull{Kind: model.PullProgress}, "", true},
		{"complete pull", both, pending, model.Pull{Kind: model.PullComplete}, "anything", true},
		{"not transport", []faults.Call{call(faults.OpFetch, "socket hang up"), {Actor: "#1.retry.b0", Op: faults.OpFetch, Err: "rpc", Fault: faults.RPCError}}, pending, failed, "anything", true},
	} {
		e := opEvent("#1.retry.b0", "retry", tc.calls)
		e.Op.Retry.Error = tc.text
		judgeErrorTextOf(t, tc.name, tc.ok, func(m *modelHarness) bool { return m.judgeRetryWrapper(e, tc.want, tc.pull) })
	}
}

// TestWaitSyncWrapperRule: a wait exec whose post-command pull failed by
// transport on both passes carries step 4's wrapper for "pull" in its sync
// result, made safe once more; the cause alone, or a pull that did not
// fail, is told apart.
func TestWaitSyncWrapperRule(t *testing.T) {
	call := func(op faults.Op, err string) faults.Call {
		return faults.Call{Actor: "#1.exec.b0", Op: op, Err: err, Transport: err != ""}
	}
	post := []faults.Call{call(faults.OpFetch, "socket hang up"), call(faults.OpConnect, ""), call(faults.OpStreamNext, "econnreset")}
	wrapper := `Workspace backend "b0": pull failed after 1 reconnect retry: initial=socket hang up; last=econnreset`
	failed := model.Pull{Kind: model.PullFailed}
	for _, tc := range []struct {
		name string
		pull model.Pull
		text string
		ok   bool
	}{
		{"wrapper", failed, wrapper, true},
		{"cause only", failed, "econnreset", false},
		{"named pullBatch", failed, `Workspace backend "b0": pullBatch failed after 1 reconnect retry: initial=socket hang up; last=econnreset`, false},
		{"complete", model.Pull{Kind: model.PullComplete}, "", true},
	} {
		e := opEvent("#1.exec.b0", "exec", nil)
		e.Op.Exec.Sync.Error = tc.text
		judgeErrorTextOf(t, tc.name, tc.ok, func(m *modelHarness) bool { return m.judgeWaitSyncWrapper(e, post, tc.pull) })
	}
}

// judgeErrorTextOf runs judge on a fresh model harness of backend b0 and
// fails the test when its verdict is not ok (true: nothing reported), or
// when what it reported is not error-text.
func judgeErrorTextOf(t *testing.T, name string, ok bool, judge func(m *modelHarness) bool) {
	t.Helper()
	m := newModelHarness("b0")
	got := m.verdict(t, judge(m))
	if (got == "") != ok {
		t.Errorf("%s: expected ok %t, got %v", name, ok, m.reports.violations)
	}
	if got != "" && got != "error-text" {
		t.Errorf("%s: expected property error-text, got %s", name, got)
	}
}
