package oracle

import (
	"github.com/syncsim/syncsim/model"
	"github.com/syncsim/syncsim/sim/history"
)

// localFollower keeps a checker's own model of the local store
// (model.LocalStore) in step with the calls that reached the store, for a
// checker that needs what a correct store holds at a call (push-target's
// reads, the counts of property applied) without judging the answers,
// which is local-store's. Each such checker keeps its own, so it runs
// alone when it is the only one selected.
type localFollower struct {
	model *model.LocalStore
	buf   []model.LocalChange
}

// begin starts a run: the store is empty. The model shares the contents
// it is fed (why: LocalStoreChecker).
func (f *localFollower) begin() { f.model = model.NewSharingLocalStore() }

// follow replays the call l on the model when it changes the store, and
// returns what apply-upstream changed by the model (0 for other calls).
func (f *localFollower) follow(l *history.Local) int {
	m := f.model
	switch l.Op {
	case "write-file":
		m.WriteFile(l.Store, l.Path, l.Content, l.Deleted)
	case "apply-upstream":
		f.buf = f.buf[:0]
		for _, ch := range l.Changes {
			f.buf = append(f.buf, model.LocalChange{Rev: ch.Rev, Path: ch.Path, Deleted: ch.Deleted, Content: ch.Content})
		}
		n := m.ApplyUpstream(l.Store, f.buf)
		clear(f.buf) // the model keeps the contents, not the slice
		return n
	case "write-fetch-cursor":
		m.WriteFetchCursor(l.Store, l.Cursor)
	case "write-fetch-cursor-if-ahead":
		m.WriteFetchCursorIfAhead(l.Store, l.Cursor)
	case "set-push-rev":
		m.SetPushRev(l.Store, l.Rev)
	case "write-push-cursor":
		m.WritePushCursor(l.Store, l.Cursor)
	}
	return 0
}
