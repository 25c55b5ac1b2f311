package scheduler

import (
	"fmt"
	"strings"
	"time"
)

// Intent is the durable record of one pending post-command sync (SPEC 1.2).
// There is at most one per backend. Optional fields are pointers: absent is
// not the same as a zero cursor or an empty runtime id.
type Intent struct {
	// Backend is the resolved backend id and the scheduler key.
	Backend string
	// TargetCursor is the fence: how far in the remote stream the retry must
	// pull before it may report complete. Nil means unfenced. Captured
	// targets always have a null path.
	TargetCursor *Cursor
	// RuntimeID names the container process whose changes are pending. When
	// set, a retry may only pull from a connection reporting the same id.
	RuntimeID *string
	// Attempt is the 1-based retry attempt this intent represents.
	Attempt int
	// NotBefore is the earliest time the host should retry this backend.
	NotBefore time.Time
}

// Ptr returns a pointer to v; it keeps optional-field literals short.
func Ptr[T any](v T) *T { return &v }

// Clone returns a deep copy, so a stored intent never aliases a caller's.
func (in Intent) Clone() Intent {
	out := in
	switch {
	case in.TargetCursor != nil && in.RuntimeID != nil:
		// Both copies in one allocation: stores clone on every read, and
		// a fenced intent carries both fields.
		box := &struct {
			target  Cursor
			runtime string
		}{*in.TargetCursor, *in.RuntimeID}
		out.TargetCursor, out.RuntimeID = &box.target, &box.runtime
	case in.TargetCursor != nil:
		out.TargetCursor = Ptr(*in.TargetCursor)
	case in.RuntimeID != nil:
		out.RuntimeID = Ptr(*in.RuntimeID)
	}
	return out
}

// Equal reports whether two intents hold the same fields, absent and
// present optional fields told apart, NotBefore compared as an instant.
func (in Intent) Equal(o Intent) bool {
	if in.Backend != o.Backend || in.Attempt != o.Attempt || !in.NotBefore.Equal(o.NotBefore) {
		return false
	}
	if (in.TargetCursor == nil) != (o.TargetCursor == nil) || (in.RuntimeID == nil) != (o.RuntimeID == nil) {
		return false
	}
	// NB: Compare, not ==: a null-path cursor with a stray Path string is
	// the same position (stores do not keep the stray string).
	if in.TargetCursor != nil && in.TargetCursor.Compare(*o.TargetCursor) != 0 {
		return false
	}
	return in.RuntimeID == nil || *in.RuntimeID == *o.RuntimeID
}

// String renders the intent in a stable one-line form used by traces and
// golden files: absent optional fields are omitted, NotBefore is printed as
// milliseconds since the Unix epoch.
func (in Intent) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "{backend %s", in.Backend)
	if in.RuntimeID != nil {
		fmt.Fprintf(&b, " runtime %s", *in.RuntimeID)
	}
	if in.TargetCursor != nil {
		fmt.Fprintf(&b, " target %s", in.TargetCursor)
	}
	fmt.Fprintf(&b, " attempt %d notBefore %d}", in.Attempt, in.NotBefore.UnixMilli())
	return b.String()
}
