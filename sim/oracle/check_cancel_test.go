package oracle

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/sim/history"
)

// storeRecords is a Records whose intent-store record is store (and no
// runtime calls).
type storeRecords struct{ store []faults.StoreCall }

func (r storeRecords) RuntimeSince(int, int) []faults.Call { return nil }

func (r storeRecords) StoreSince(mark int) []faults.StoreCall {
	return r.store[min(mark, len(r.store)):]
}

// An operation cancelled while parked before any call returns its
// context's error and makes no call; one that was not cancelled so is
// not this property's.
func TestCancelChecker(t *testing.T) {
	const actor = "#1.retry.b0"
	wrapped := fmt.Errorf("retry: %w", context.Canceled)
	ownStore := []faults.StoreCall{{Actor: actor, Op: faults.StoreOpGet}}
	otherStore := []faults.StoreCall{{Actor: "#2.exec.b0", Op: faults.StoreOpGet}}
	for _, tc := range []struct {
		name  string
		op    history.Op
		store []faults.StoreCall
		fires bool
	}{
		{"the context's error, no call", history.Op{Kind: "retry", Cancelled: true, Err: wrapped}, nil, false},
		{"another error", history.Op{Kind: "retry", Cancelled: true, Err: errors.New("canceled")}, nil, true},
		{"no error", history.Op{Kind: "retry", Cancelled: true}, nil, true},
		{"then a runtime call", history.Op{Kind: "retry", Cancelled: true, Err: wrapped, Calls: []faults.Call{{Op: faults.OpConnect}}}, nil, true},
		{"then a store call", history.Op{Kind: "retry", Cancelled: true, Err: wrapped}, ownStore, true},
		{"another actor's store call", history.Op{Kind: "retry", Cancelled: true, Err: wrapped}, otherStore, false},
		{"not cancelled while parked", history.Op{Kind: "retry", Err: errors.New("x"), CancelHit: true}, ownStore, false},
	} {
		var rep recorder
		c := Lookup("cancel").New(nil)
		c.Begin(history.Setup{}, storeRecords{tc.store})
		op := tc.op
		c.Observe(&history.Event{Kind: history.OpReturned, Actor: actor, Op: &op}, &rep)
		if fired := len(rep.violations) > 0; fired != tc.fires {
			t.Errorf("%s: expected a violation %t, got %v", tc.name, tc.fires, rep.violations)
		}
		if len(rep.violations) > 0 && !strings.HasPrefix(rep.violations[0], "cancel:") {
			t.Errorf("%s: expected property cancel, got %v", tc.name, rep.violations)
		}
	}
}
