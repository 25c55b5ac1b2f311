package sim

import (
	"strconv"
	"time"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/scheduler"
)

// Times print one way everywhere syncsim shows them — trace lines, intents'
// notBefore, alarm and advance targets, violation details, reports, scenario
// expectations and the explain page: seconds since the start of the run,
// signed, seven digits wide, to the millisecond (+0000012.345). A reader can
// line a report's time up with its trace lines and compare two at a glance.

// offsetWidth is the zero-padded width of the whole seconds.
const offsetWidth = 7

// Offset prints d, a virtual time since the start of a run, as
// [+-]SSSSSSS.mmm, truncated to the millisecond.
func Offset(d time.Duration) string { return string(appendOffset(nil, d)) }

// OffsetExact is Offset followed by the sub-millisecond remainder as six
// more digits when there is one (+0000001.500000250): intent tables are
// compared to the nanosecond, so their diffs must show it.
func OffsetExact(d time.Duration) string {
	b := appendOffset(nil, d)
	if ns := (d % time.Millisecond).Abs(); ns != 0 {
		var digits [8]byte
		n := strconv.AppendInt(digits[:0], int64(ns), 10)
		for range 6 - len(n) {
			b = append(b, '0')
		}
		b = append(b, n...)
	}
	return string(b)
}

// appendOffset appends d as [+-]SSSSSSS.mmm, truncated to the millisecond.
func appendOffset(b []byte, d time.Duration) []byte {
	ms := d.Milliseconds()
	sign := byte('+')
	if d < 0 {
		sign, ms = '-', -ms
	}
	b = append(b, sign)
	var digits [20]byte
	sec := strconv.AppendInt(digits[:0], ms/1000, 10)
	for range offsetWidth - len(sec) {
		b = append(b, '0')
	}
	b = append(b, sec...)
	frac := ms % 1000
	return append(b, '.', byte('0'+frac/100), byte('0'+frac/10%10), byte('0'+frac%10))
}

// at prints t as a time since the run's start.
func (h *Host) at(t time.Time) string { return Offset(t.Sub(h.t0)) }

// appendAt appends t as a time since the run's start.
func (h *Host) appendAt(b []byte, t time.Time) []byte { return appendOffset(b, t.Sub(h.t0)) }

// intentText prints in as scheduler.Intent.String does, but with its
// NotBefore as a time since the run's start.
func (h *Host) intentText(in scheduler.Intent) string {
	return string(faults.AppendIntent(nil, in, h.appendAt))
}
