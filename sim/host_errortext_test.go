package sim

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/workspace"
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
		h, err := NewHost(Config{Seed: 1, Backends: 1, Profile: faults.Profile{}})
		if err != nil {
			t.Fatal(err)
		}
		h.names[0] = id
		f := finished{actor: "#1.retry.b0", kind: "retry", retry: workspace.RetryResult{Error: tc.text}}
		v := h.judgeErrorText(f)
		if (v == nil) != tc.ok {
			t.Errorf("%q: expected ok %t, got %v", tc.text, tc.ok, v)
		}
		if v != nil && v.Property != "error-text" {
			t.Errorf("%q: expected property error-text, got %s", tc.text, v.Property)
		}
		h.Close()
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
		h, err := NewHost(Config{Seed: 1, Backends: 1, Profile: faults.Profile{}})
		if err != nil {
			t.Fatal(err)
		}
		v := h.judgeRetriedWrapper(finished{actor: "#1.pull.b0", kind: "pull", err: tc.err}, tc.want)
		if (v == nil) != tc.ok {
			t.Errorf("%s: expected ok %t, got %v", tc.name, tc.ok, v)
		}
		h.Close()
	}
}
