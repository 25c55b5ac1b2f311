package scheduler

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/syncsim/syncsim/scheduler/sqlitedb"
)

// ErrCorrupt classifies a stored row that does not decode to a valid
// intent. The error text names the backend and the offending column.
var ErrCorrupt = errors.New("corrupt row")

func corrupt(backend string, err error) error {
	return fmt.Errorf("scheduler: backend %q: %w: %w", backend, ErrCorrupt, err)
}

// row is an intent in column form; nil means SQL NULL.
type row struct {
	backend       string
	attempt       int64
	notBefore     int64
	runtimeID     any
	targetRev     any
	targetHasPath any
	targetPath    any
}

// encodeIntent maps an intent to columns. It refuses a NotBefore that Unix
// nanoseconds in an int64 cannot hold (before 1678 or after 2262, the zero
// time.Time included) rather than store a different instant.
func encodeIntent(in Intent) (row, error) {
	ns := in.NotBefore.UnixNano()
	if !time.Unix(0, ns).Equal(in.NotBefore) {
		return row{}, fmt.Errorf("scheduler: backend %q: schedule: NotBefore %s is outside the range the sqlite store holds (years 1678-2262)",
			in.Backend, in.NotBefore.Format(time.RFC3339Nano))
	}
	r := row{backend: in.Backend, attempt: int64(in.Attempt), notBefore: ns}
	if in.RuntimeID != nil {
		r.runtimeID = *in.RuntimeID
	}
	if c := in.TargetCursor; c != nil {
		r.targetRev, r.targetHasPath = c.Rev, int64(0)
		if c.HasPath {
			r.targetHasPath, r.targetPath = int64(1), c.Path
		}
	}
	return r, nil
}

// scanIntent reads one row of selectIntents. Every column is scanned as any
// and its storage class checked by hand: a conversion (a text attempt "7"
// read as 7, a NULL as "") is exactly the silent reinterpretation a
// durable store must not do.
func scanIntent(rows *sqlitedb.Rows) (Intent, error) {
	var backendV, attemptV, notBeforeV, runtimeV, revV, hasPathV, pathV any
	if err := rows.Scan(&backendV, &attemptV, &notBeforeV, &runtimeV, &revV, &hasPathV, &pathV); err != nil {
		return Intent{}, fmt.Errorf("scheduler: scan row: %w", err)
	}
	backend, ok := backendV.(string)
	if !ok {
		return Intent{}, corrupt(fmt.Sprint(backendV), fmt.Errorf("backend is %s, want text", sqlitedb.StorageClass(backendV)))
	}
	bad := func(format string, args ...any) (Intent, error) {
		return Intent{}, corrupt(backend, fmt.Errorf(format, args...))
	}
	attempt, ok := attemptV.(int64)
	if !ok {
		return bad("attempt is %s %v, want integer", sqlitedb.StorageClass(attemptV), attemptV)
	}
	if attempt < math.MinInt || attempt > math.MaxInt {
		return bad("attempt %d overflows int", attempt)
	}
	notBefore, ok := notBeforeV.(int64)
	if !ok {
		return bad("not_before is %s %v, want integer", sqlitedb.StorageClass(notBeforeV), notBeforeV)
	}
	in := Intent{Backend: backend, Attempt: int(attempt), NotBefore: time.Unix(0, notBefore).UTC()}
	switch v := runtimeV.(type) {
	case nil:
	case string:
		in.RuntimeID = Ptr(v)
	default:
		return bad("runtime_id is %s, want text or null", sqlitedb.StorageClass(runtimeV))
	}
	target, err := decodeTarget(revV, hasPathV, pathV)
	if err != nil {
		return bad("%w", err)
	}
	in.TargetCursor = target
	return in, nil
}

// decodeTarget rebuilds the optional target cursor from its three columns,
// refusing every combination encodeIntent never writes.
func decodeTarget(revV, hasPathV, pathV any) (*Cursor, error) {
	if revV == nil {
		if hasPathV != nil || pathV != nil {
			return nil, fmt.Errorf("target_rev is null but target_has_path=%v target_path=%v", hasPathV, pathV)
		}
		return nil, nil
	}
	rev, ok := revV.(int64)
	if !ok {
		return nil, fmt.Errorf("target_rev is %s %v, want integer", sqlitedb.StorageClass(revV), revV)
	}
	switch hasPathV {
	case int64(0):
		if pathV != nil {
			return nil, fmt.Errorf("target_has_path is 0 but target_path is %s", sqlitedb.StorageClass(pathV))
		}
		return Ptr(At(rev)), nil
	case int64(1):
		path, ok := pathV.(string)
		if !ok {
			return nil, fmt.Errorf("target_has_path is 1 but target_path is %s, want text", sqlitedb.StorageClass(pathV))
		}
		return Ptr(AtPath(rev, path)), nil
	}
	return nil, fmt.Errorf("target_has_path is %s %v, want 0 or 1", sqlitedb.StorageClass(hasPathV), hasPathV)
}
