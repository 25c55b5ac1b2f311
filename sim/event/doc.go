// Package event is the typed model of a syncsim trace: an Event is one
// trace line (time, actor, kind, ordered fields), AppendText renders it and
// ParseEvent reads a line back into the event it renders. The time format
// every syncsim output shares (Offset, OffsetExact, ParseOffset) lives here
// too.
//
// Import rule: this package imports only the standard library (check with
// `go list -deps ./sim/event`). It is the leaf that the driver (package
// sim, whose Trace writes the lines), the oracle (sim/oracle), the corpus
// expectations (package scenarios) and the explain page (cmd/syncsim) share,
// so that reading a trace never needs the code that drives a run.
//
// # Events
//
// The trace is a sequence of typed events. An Event is the time since the
// trace's start (whole milliseconds, as printed), the actor ("-" for the
// driver), a kind and ordered Fields. A Field has a Key, a Value (unquoted
// when the text Go-quotes it; Quoted says so) and a Form that says how it
// prints:
//
//	Pair  key=value     a detail of an ordinary event (exec-result, fault, ...)
//	Bare  value         a bare detail (liveness ok); a call's op, backend, command, intent
//	Word  key value     a call's named value (conn 1, err "...")
//	Flag  key           a call's flag (eof, armed, relaunched, not-found)
//	Seq   #value        a call's sequence number
//
// Kinds KindRuntime ("rt") and KindStore ("store") are calls from the fault
// wrappers' records (faults.Call.AppendTrace, faults.StoreCall.AppendTrace);
// every other kind has details, which sim.Trace.Add sorts. A {...} value (a
// cursor, an intent) stays as printed; Field.Group reads an intent's
// fields.
//
// Three rules tie text and events together:
//
//  1. The line is the event's rendering, Event.AppendText. The trace keeps
//     each event as a Record (its fields encoded, unformatted), renders
//     the line from it only when read (Record.AppendText, the same text),
//     and hashes the records: the trace hash is the SHA-256 of the header
//     lines, each ending in "\n", and the records. Header lines (seed,
//     profile, config, strategy) are not events; ParseDetails reads their
//     key=value part.
//  2. ParseEvent is the one way text becomes an event, and it is exact:
//     for a line it accepts, Render(Parse(line)) == line and
//     Parse(Render(e)) == e. It refuses text no event renders to (a raw
//     line break, a time not in Offset's form, a needlessly quoted actor)
//     with an error wrapping ErrNotEvent.
//  3. Consumers read events: sim.Trace.Events returns the kept lines
//     read back. The trace keeps records (a sweep keeps a small ring and
//     reads almost none of it), so neither text nor events cost anything
//     on the hot path; they are made only when asked for.
package event
