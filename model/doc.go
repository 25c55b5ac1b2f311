// Package model is syncsim's reference model: a second, independent
// description of what the retry intent table and every result must be.
//
// It never imports package workspace, the code it judges. It shares only the
// scheduler's data types (Intent, Cursor). Where an outcome depends on what
// the container runtime did — a pull failed, a batch hit its budget, the
// connection reported another runtime, a store call was refused — the model
// is told so by the caller, who reads it from the runtime's and the store
// wrapper's own records, never from the system under test.
//
// Usage:
//
//  1. Start from Empty() with the workspace's Options.
//  2. For every finished operation, call Retry, Exec with the outcome read
//     from the runtime's record; each returns the new State and the result the
//     SUT must have produced. States are values: a step never mutates its input.
//  3. Compare the SUT's intent table with State.Intents, and check
//     Invariants after every step.
//
// The model is short on purpose: if it grows past one sitting, it has
// started to copy the implementation.
package model
