package sim

import (
	"time"
)

// The clock a run reads is Epoch shifted by less than a millisecond and
// read in a location other than UTC, both drawn per seed from a stream of
// their own. Production passes clock.New(), whose Now carries nanoseconds
// and the machine's local zone; a SUT (or a plugged-in store) that rounds
// instants to milliseconds, compares times with == instead of Equal, or
// drops the location must meet both here. The trace prints every time
// relative to the start, so the shift and the zone never show in it.

// startZones are the locations a run's clock may read in: UTC, and fixed
// zones east and west with a non-whole-hour one among them (no time.Local:
// it would make a run depend on the machine).
var startZones = []*time.Location{
	time.UTC,
	time.FixedZone("IST", 5*3600+30*60),
	time.FixedZone("PST", -8*3600),
	time.FixedZone("CHAST", 13*3600+45*60),
}

// drawStart is the clock's start for seed.
func drawStart(seed uint64) time.Time {
	r := Stream(seed, "clock")
	var shift time.Duration
	if r.IntN(2) == 0 {
		shift = time.Duration(1 + r.Int64N(int64(time.Millisecond)-1))
	}
	return Epoch.Add(shift).In(startZones[r.IntN(len(startZones))])
}
