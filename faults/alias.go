package faults

import "github.com/syncsim/syncsim/scheduler"

// A store must never alias its callers' intents: Schedule keeps a copy of
// what it is given, and Get and List hand out copies of what they hold
// (SPEC 2.2: the table is the store's alone). Nothing else would notice a
// store that kept a caller's pointer until that caller wrote through it,
// which the workspace happens never to do. So the wrapper does it on
// purpose: the store is handed an intent of the wrapper's own and answers
// go back to the workspace as copies, and after each call the wrapper
// poisons its own intent and the store's answers, writing through every
// pointer. A store that aliased now holds the poison, and the next
// comparison of its table with the model's (intent-table) shows it.
//
// The copies are made here, not with scheduler.Intent.Clone: the harness
// must not lean on the code it checks.

// CopyIntent returns a deep copy of in: no pointer of the copy is shared
// with in (the host's intent-store probe uses it too).
func CopyIntent(in scheduler.Intent) scheduler.Intent {
	out := in
	if in.TargetCursor != nil {
		c := *in.TargetCursor
		out.TargetCursor = &c
	}
	if in.RuntimeID != nil {
		r := *in.RuntimeID
		out.RuntimeID = &r
	}
	return out
}

// poisonedRuntime and poisonedTarget are what poisoning writes: values no
// correct run ever stores, so a table that holds one aliased a caller.
const poisonedRuntime = "poisoned-by-harness"

var poisonedTarget = scheduler.Cursor{Rev: -1, Path: "poisoned-by-harness", HasPath: true}

// poisonIntent writes the poison through in's pointers (the struct itself
// is the caller's copy, so only shared pointees can carry it elsewhere).
func poisonIntent(in *scheduler.Intent) {
	if in.TargetCursor != nil {
		*in.TargetCursor = poisonedTarget
	}
	if in.RuntimeID != nil {
		*in.RuntimeID = poisonedRuntime
	}
}
