package faults

import "fmt"

// Kind is one fault kind. The order of the constants is stable: profiles
// print in it, and scenario files name kinds by String.
type Kind int

// Kinds in their stable order. The zero Kind is NoFault.
const (
	NoFault Kind = iota
	// Crash kills the container process (an event; see Container.Crash).
	Crash
	// Restart replaces the process (an event; see Container.Restart).
	Restart
	// LostIdentity makes new connections report another or no runtime id
	// (an event; see Container.LoseIdentity).
	LostIdentity
	// TruncatedLog shortens the remote log under live connections (an
	// event; see Container.TruncateLog).
	TruncatedLog
	// TransportConnect fails a Connect (per call).
	TransportConnect
	// TransportPreDispatch fails an Exec or Push before it reaches the
	// remote (per call).
	TransportPreDispatch
	// TransportPostDispatch fails a call after the remote acted on it (per
	// call).
	TransportPostDispatch
	// TransportMidStream fails a change or event stream after k entries
	// (per stream).
	TransportMidStream
	// SettleFailure fails Watermarks{Settle: true} (per call).
	SettleFailure
	// StoreGet, StoreSchedule and StoreClear fail a scheduler store call
	// before it reaches the store (per call).
	StoreGet
	StoreSchedule
	StoreClear
	// HostRestart restarts the simulated host (an event the simulator
	// carries out; this package only names it).
	HostRestart
	// RPCError fails a FetchChanges with an ordinary, non-transport error
	// (per call): the connection stays up and the workspace does not
	// reconnect or replay (SPEC 5.2 step 1), the pull simply fails. It is
	// last so that profiles drawn before it existed keep their other kinds.
	RPCError
	// LocalIO fails a call into the workspace's local store (files and
	// cursors) before it reaches the store (per call; see LocalStore).
	LocalIO

	kindEnd
)

// NumKinds is the number of fault kinds, NoFault excluded.
const NumKinds = int(kindEnd) - 1

var kindNames = [kindEnd]string{
	NoFault:               "none",
	Crash:                 "crash",
	Restart:               "restart",
	LostIdentity:          "lost-identity",
	TruncatedLog:          "truncated-log",
	TransportConnect:      "transport-connect",
	TransportPreDispatch:  "transport-pre-dispatch",
	TransportPostDispatch: "transport-post-dispatch",
	TransportMidStream:    "transport-mid-stream",
	SettleFailure:         "settle-failure",
	StoreGet:              "store-get",
	StoreSchedule:         "store-schedule",
	StoreClear:            "store-clear",
	HostRestart:           "host-restart",
	RPCError:              "rpc-error",
	LocalIO:               "local-store",
}

// Kinds returns every fault kind in stable order, NoFault excluded.
func Kinds() []Kind {
	out := make([]Kind, 0, NumKinds)
	for k := Crash; k < kindEnd; k++ {
		out = append(out, k)
	}
	return out
}

// Valid reports whether k is a fault kind (NoFault is not).
func (k Kind) Valid() bool { return k > NoFault && k < kindEnd }

// String returns the stable name of k ("none" for NoFault).
func (k Kind) String() string {
	if k < NoFault || k >= kindEnd {
		return fmt.Sprintf("kind(%d)", int(k))
	}
	return kindNames[k]
}

// Event reports whether k is an event kind, drawn by the scenario generator
// as an operation (its Profile value is a weight), rather than a per-call
// kind drawn by the runtime at each call (its Profile value is a
// probability).
func (k Kind) Event() bool {
	switch k {
	case Crash, Restart, LostIdentity, TruncatedLog, HostRestart:
		return true
	}
	return false
}

// ParseKind is the inverse of Kind.String for fault kinds.
func ParseKind(s string) (Kind, error) {
	for k := Crash; k < kindEnd; k++ {
		if kindNames[k] == s {
			return k, nil
		}
	}
	return NoFault, fmt.Errorf("faults: unknown fault kind %q", s)
}
