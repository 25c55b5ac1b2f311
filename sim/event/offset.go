package event

import (
	"strconv"
	"time"
)

// Times print one way everywhere syncsim shows them — trace lines, intents'
// notBefore, alarm and advance targets, violation details, reports, scenario
// expectations and the explain page: seconds since the start of the run,
// signed, seven digits wide, to the millisecond (+0000012.345). A reader can
// line a report's time up with its trace lines and compare two at a glance.
// ParseOffset (parse.go) reads the form back.

// offsetWidth is the zero-padded width of the whole seconds.
const offsetWidth = 7

// Offset prints d, a virtual time since the start of a run, as
// [+-]SSSSSSS.mmm, truncated to the millisecond.
func Offset(d time.Duration) string { return string(AppendOffset(nil, d)) }

// OffsetExact is Offset followed by the sub-millisecond remainder as six
// more digits when there is one (+0000001.500000250): intent tables are
// compared to the nanosecond, so their diffs must show it.
func OffsetExact(d time.Duration) string {
	b := AppendOffset(nil, d)
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

// AppendOffset appends d as Offset prints it: [+-]SSSSSSS.mmm, truncated
// to the millisecond.
func AppendOffset(b []byte, d time.Duration) []byte {
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
