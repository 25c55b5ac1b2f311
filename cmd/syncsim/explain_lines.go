package main

import (
	"strconv"
	"strings"
	"time"

	"github.com/syncsim/syncsim/sim/event"
)

// This file gives the explain page its view of a trace's events (read
// through sim.Trace.Events, never from the text): which fields a line has,
// which lane it belongs on, the intent a store call wrote.

// tline is one event of the trace, as the explain page lays it out.
type tline struct {
	no    int    // line number in the printed trace, from 1
	raw   string // the line as printed (the event's rendering)
	ms    int64  // virtual time since the start, in milliseconds
	actor string // "-" for the host
	event string // the event's kind
	ev    event.Event
	lane  string // backend name, "" for the host lane
}

// newTline is event e printed as line no.
func newTline(no int, e event.Event) tline {
	return tline{no: no, raw: e.String(), ms: e.At.Milliseconds(), actor: e.Actor, event: e.Kind, ev: e}
}

// get returns the value of detail k of an ordinary event ("" when absent,
// and for a runtime or store call, whose fields are call's).
func (l *tline) get(k string) string {
	if l.ev.IsRecord() {
		return ""
	}
	return l.ev.Value(k)
}

// has reports whether an ordinary event has detail k.
func (l *tline) has(k string) bool { return !l.ev.IsRecord() && l.ev.Has(k) }

// call returns field k of a runtime or store call ("" when absent, and for
// an ordinary event).
func (l *tline) call(k string) string {
	if !l.ev.IsRecord() {
		return ""
	}
	return l.ev.Value(k)
}

// callHas reports whether a runtime or store call has field k (a flag such
// as eof, or a named value such as fault).
func (l *tline) callHas(k string) bool { return l.ev.IsRecord() && l.ev.Has(k) }

// op is the op of a runtime call ("fetch") or a store call
// ("store-schedule").
func (l *tline) op() string { return l.call("op") }

// rest is the event's fields as printed: what follows its kind.
func (l *tline) rest() string { return l.ev.Body() }

// hasWord reports whether an ordinary event carries the bare detail w
// ("liveness ok").
func (l *tline) hasWord(w string) bool {
	for _, f := range l.ev.Fields {
		if f.Form == event.Bare && f.Value == w && !l.ev.IsRecord() {
			return true
		}
	}
	return false
}

// storedIntent is the intent a store-schedule call wrote.
type storedIntent struct {
	runtime, target string
	attempt         int
	notBefore       int64 // ms since the trace start
	ok              bool
}

// intent reads the intent of a store call ("{backend b0 runtime r target
// {4,null} attempt 1 notBefore +0000001.000}").
func (l *tline) intent() storedIntent {
	f, ok := l.ev.Field("intent")
	if !ok || !l.ev.IsRecord() {
		return storedIntent{}
	}
	return readIntent(f)
}

func readIntent(f event.Field) storedIntent {
	fields, ok := f.Group()
	if !ok {
		return storedIntent{}
	}
	in := event.Event{Fields: fields}
	s := storedIntent{runtime: in.Value("runtime"), target: in.Value("target")}
	a, err := strconv.Atoi(in.Value("attempt"))
	nb, ok := offsetMS(in.Value("notBefore"))
	if err != nil || !ok {
		return s
	}
	s.attempt, s.notBefore, s.ok = a, nb, true
	return s
}

// offsetMS reads a time the trace prints (event.Offset) as milliseconds.
func offsetMS(s string) (int64, bool) {
	d, err := event.ParseOffset(s)
	return d.Milliseconds(), err == nil
}

// laneOf is the backend an actor works on: the last part of names like
// "#7.exec.b0"; "" (the host lane) for the host ("-") and for actors that
// work on no backend, such as a time advance inside a group ("#7.tick").
func laneOf(actor string) string {
	parts := strings.Split(actor, ".")
	if len(parts) < 3 || parts[len(parts)-1] == "" {
		return ""
	}
	return parts[len(parts)-1]
}

// actorKind is the middle part of "#7.exec.b0": exec, retry, alarm, write,
// tail, or "" when the actor does not have that shape.
func actorKind(actor string) string {
	parts := strings.Split(actor, ".")
	if len(parts) < 3 {
		return ""
	}
	return parts[len(parts)-2]
}

// fmtMS prints a time since the start as the trace does (event.Offset).
func fmtMS(ms int64) string { return event.Offset(time.Duration(ms) * time.Millisecond) }
