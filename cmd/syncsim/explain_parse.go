package main

import (
	"strconv"
	"strings"
	"time"

	"github.com/syncsim/syncsim/sim"
)

// This file reads trace lines back (sim.Trace's format) for the explain
// page. It never fails: a line it cannot read is kept as raw text without a
// time, shown in the listing and left off the timeline.

// tline is one event line of a trace, read back.
type tline struct {
	no    int    // line number in the printed trace, from 1
	raw   string // the line as printed
	ok    bool   // the time, actor and event were read
	ms    int64  // virtual time since the start, in milliseconds
	actor string // "-" for the host
	event string
	rest  string // everything after the event
	kv    []kv   // rest read as key=value details (not for rt and store)
	call  []string
	lane  string // backend name, "" for the host lane
}

type kv struct{ k, v string }

// get returns the value of key k in l's details.
func (l *tline) get(k string) string {
	for _, p := range l.kv {
		if p.k == k {
			return p.v
		}
	}
	return ""
}

func (l *tline) has(k string) bool {
	for _, p := range l.kv {
		if p.k == k {
			return true
		}
	}
	return false
}

// parseTraceLine reads one event line: "+0000012.345 actor event details".
func parseTraceLine(no int, raw string) tline {
	l := tline{no: no, raw: raw}
	ts, rest := nextField(raw)
	ms, ok := parseOffset(ts)
	if !ok {
		return l
	}
	actor, rest := nextField(rest)
	event, rest := nextField(rest)
	if actor == "" || event == "" {
		return l
	}
	l.ok, l.ms, l.actor, l.event, l.rest = true, ms, actor, event, strings.TrimSpace(rest)
	switch event {
	case "rt", "store":
		l.call = callTokens(l.rest)
	default:
		l.kv = parseDetails(l.rest)
	}
	return l
}

// parseOffset reads the time field, [+-]SSSSSSS.mmm, as milliseconds.
func parseOffset(s string) (int64, bool) {
	if len(s) < 6 || (s[0] != '+' && s[0] != '-') {
		return 0, false
	}
	whole, frac, ok := strings.Cut(s[1:], ".")
	if !ok || len(frac) != 3 || whole == "" {
		return 0, false
	}
	sec, err1 := strconv.ParseInt(whole, 10, 64)
	msec, err2 := strconv.ParseInt(frac, 10, 64)
	if err1 != nil || err2 != nil || sec < 0 || msec < 0 {
		return 0, false
	}
	ms := sec*1000 + msec
	if s[0] == '-' {
		ms = -ms
	}
	return ms, true
}

// nextField returns the first space-separated field of s (unquoted when the
// trace quoted it) and what follows it.
func nextField(s string) (field, rest string) {
	s = strings.TrimLeft(s, " ")
	if s == "" {
		return "", ""
	}
	if s[0] == '"' {
		if q, err := strconv.QuotedPrefix(s); err == nil {
			if u, err := strconv.Unquote(q); err == nil {
				return u, s[len(q):]
			}
		}
	}
	return cutSpace(s)
}

// cutSpace splits s at its first space.
func cutSpace(s string) (head, rest string) {
	head, rest, _ = strings.Cut(s, " ")
	return head, rest
}

// parseDetails reads key=value details; a value may be a Go-quoted string
// holding spaces. A field without "=" is kept with an empty key.
func parseDetails(s string) []kv {
	var out []kv
	for {
		s = strings.TrimLeft(s, " ")
		if s == "" {
			return out
		}
		if s[0] == '"' { // a whole field quoted because it held a newline
			f, rest := nextField(s)
			k, v, _ := strings.Cut(f, "=")
			out = append(out, kv{k, unquoteValue(v)})
			s = rest
			continue
		}
		eq := strings.IndexByte(s, '=')
		sp := strings.IndexByte(s, ' ')
		if eq < 0 || (sp >= 0 && sp < eq) {
			f, rest := nextField(s)
			out = append(out, kv{"", f})
			s = rest
			continue
		}
		k, v := s[:eq], s[eq+1:]
		if strings.HasPrefix(v, `"`) {
			if q, err := strconv.QuotedPrefix(v); err == nil {
				out = append(out, kv{k, unquoteValue(q)})
				s = v[len(q):]
				continue
			}
		}
		val, rest := cutSpace(v)
		out = append(out, kv{k, val})
		s = rest
	}
}

func unquoteValue(v string) string {
	if strings.HasPrefix(v, `"`) {
		if u, err := strconv.Unquote(v); err == nil {
			return u
		}
	}
	return v
}

// callTokens splits a runtime or store call as the trace prints it
// (faults.Call.AppendTrace, faults.StoreCall.AppendTrace: "#seq op ...")
// into tokens. A quoted string is one token,
// unquoted; a {...} group (a cursor or an intent) is one token, kept raw.
func callTokens(s string) []string {
	var out []string
	for {
		s = strings.TrimLeft(s, " ")
		if s == "" {
			return out
		}
		switch s[0] {
		case '"':
			if q, err := strconv.QuotedPrefix(s); err == nil {
				out = append(out, unquoteValue(q))
				s = s[len(q):]
				continue
			}
		case '{':
			n := braceEnd(s)
			out = append(out, s[:n])
			s = s[n:]
			continue
		}
		f, rest := cutSpace(s)
		out = append(out, f)
		s = rest
	}
}

// braceEnd returns the length of the {...} group s starts with, honouring
// nesting and quoted strings; all of s when it is not closed.
func braceEnd(s string) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '"':
			if q, err := strconv.QuotedPrefix(s[i:]); err == nil {
				i += len(q) - 1
			}
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return len(s)
}

// after returns the token that follows key in toks ("" when absent).
func after(toks []string, key string) string {
	for i := 0; i+1 < len(toks); i++ {
		if toks[i] == key {
			return toks[i+1]
		}
	}
	return ""
}

func hasToken(toks []string, key string) bool {
	for _, t := range toks {
		if t == key {
			return true
		}
	}
	return false
}

// callOp is the op of a runtime call ("fetch") or a store call
// ("store-schedule"): the third token, after the sequence number and actor.
func callOp(toks []string) string {
	if len(toks) < 2 {
		return ""
	}
	return toks[1]
}

// storedIntent is an intent read back from scheduler.Intent.String.
type storedIntent struct {
	runtime, target string
	attempt         int
	notBefore       int64 // ms since the trace start
	ok              bool
}

// parseIntent reads "{backend b0 runtime r target {4,null} attempt 1
// notBefore +0000001.000}" (faults.AppendIntent as the trace prints it).
func parseIntent(s string) storedIntent {
	if !strings.HasPrefix(s, "{") || !strings.HasSuffix(s, "}") {
		return storedIntent{}
	}
	toks := callTokens(s[1 : len(s)-1])
	in := storedIntent{runtime: after(toks, "runtime"), target: after(toks, "target")}
	a, err1 := strconv.Atoi(after(toks, "attempt"))
	nb, ok := parseOffset(after(toks, "notBefore"))
	if err1 != nil || !ok {
		return in
	}
	in.attempt, in.notBefore, in.ok = a, nb, true
	return in
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

// fmtMS prints a time since the start as the trace does (sim.Offset).
func fmtMS(ms int64) string { return sim.Offset(time.Duration(ms) * time.Millisecond) }
