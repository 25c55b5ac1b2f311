package oracle

import (
	"errors"
	"fmt"
	"testing"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/sim/history"
	"github.com/syncsim/syncsim/sim/ledger"
	"github.com/syncsim/syncsim/workspace"
)

// Acknowledged writes are held to the next listing; a write that reached
// the store before the path's latest acknowledged one is superseded; a
// write that failed by itself breaks host-write at once.
func TestHostWriteChecker(t *testing.T) {
	op := func(kind, path string, version, stored int, err error) history.Event {
		return history.Event{Kind: history.OpReturned, Actor: "#1." + kind + ".b0", Op: &history.Op{Kind: kind, Path: path, Version: version, Stored: stored, Err: err}}
	}
	listing := func(files ...workspace.File) history.Event {
		return history.Event{Kind: history.LocalFiles, Files: &history.Files{Files: files}}
	}
	holds := func(path string, version int) workspace.File {
		return workspace.File{Path: path, Content: []byte(ledger.HostContentSized(ledger.ContentKey(path, version), 0))}
	}
	for _, tc := range []struct {
		name   string
		events []history.Event
		want   string
	}{
		{"held", []history.Event{op("write", "/host/1", 0, 1, nil), listing(holds("/host/1", 0))}, ""},
		{"lost", []history.Event{op("write", "/host/1", 0, 1, nil), listing()},
			"host-write: backend b0: host write /host/1: expected in the local store (acknowledged), got none"},
		{"a rewrite acknowledged late is superseded", []history.Event{
			op("write", "/host/1", 2, 5, nil), op("write", "/host/1", 1, 4, nil), listing(holds("/host/1", 2)),
		}, ""},
		{"a delete still held", []history.Event{op("delete", "/host/1", 0, 2, nil), listing(holds("/host/1", 0))},
			"host-write: backend b0: host delete of /host/1 was acknowledged, the local store still holds it"},
		{"an injected failure is never acknowledged", []history.Event{op("write", "/host/1", 0, 0, fmt.Errorf("x: %w", faults.ErrInjected)), listing()}, ""},
		{"a failure not injected", []history.Event{op("write", "/host/1", 0, 0, errors.New("disk full"))}, "host-write: #1.write.b0: disk full"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			expectFirst(t, &HostWriteChecker{}, history.Setup{Backends: []string{"b0"}}, tc.events, tc.want)
		})
	}
}
