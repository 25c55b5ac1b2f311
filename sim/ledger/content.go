package ledger

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
)

// HostPrefix is where host-side writes live (the driver's host writes);
// the container writes elsewhere, so the two never collide.
const HostPrefix = "/host/"

// HostContent is what the driver's host writes (sim.Host.SpawnWrite) write
// at path: the content host-write expects there.
func HostContent(path string) string { return HostContentSized(path, 0) }

// HostContentSized is HostContent padded to exactly size bytes (size <= 0:
// as it is): what a sized host write (sim.Host.SpawnWritesSized) writes.
func HostContentSized(path string, size int) string {
	return string(AppendHostContent(nil, path, size))
}

// hostFiller is the pattern a sized host write is padded with, repeated
// from the end of HostContent's text.
const hostFiller = "host-write-padding "

// hostFillerBlock is hostFiller repeated to a whole number of copies near
// 64 KiB: a padded tail is written and compared a block at a time.
var hostFillerBlock = []byte(strings.Repeat(hostFiller, 64<<10/len(hostFiller)))

// hostContentLen is the length of HostContentSized(path, size).
func hostContentLen(path string, size int) int {
	return max(len("host ")+len(path), size)
}

// AppendHostContent appends HostContentSized(path, size) to dst. A sized
// write of megabytes is built in one allocation (the string form costs
// three).
func AppendHostContent(dst []byte, path string, size int) []byte {
	dst = slices.Grow(dst, hostContentLen(path, size))
	dst = append(append(dst, "host "...), path...)
	for rest := size - len("host ") - len(path); rest > 0; {
		n := min(rest, len(hostFillerBlock))
		dst = append(dst, hostFillerBlock[:n]...)
		rest -= n
	}
	return dst
}

// IsHostContent reports whether got is exactly HostContentSized(path,
// size), without building it: the host-write check compares every
// acknowledged write at every listing, and building a megabyte-sized
// expectation each time was half of what a run with big writes allocated.
func IsHostContent(got []byte, path string, size int) bool {
	if len(got) != hostContentLen(path, size) {
		return false
	}
	head := len("host ") + len(path)
	if string(got[:len("host ")]) != "host " || string(got[len("host "):head]) != path {
		return false
	}
	for tail := got[head:]; len(tail) > 0; {
		n := min(len(tail), len(hostFillerBlock))
		if !bytes.Equal(tail[:n], hostFillerBlock[:n]) {
			return false
		}
		tail = tail[n:]
	}
	return true
}

// ContentKey is what a host write of path at version v derives its content
// from (HostContentSized(ContentKey(path, v), size)): the path itself for
// a path's first write, and the path with " #v" for its v-th rewrite, so
// that a rewrite of the same size has the same length and other bytes.
func ContentKey(path string, v int) string {
	if v == 0 {
		return path
	}
	return path + " #" + strconv.Itoa(v)
}
