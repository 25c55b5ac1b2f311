package faults

// A local store must keep its own copies of the contents it is given
// (workspace.Store: WriteFile and ApplyUpstream), as an intent store keeps
// its own intents (alias.go). The workspace never writes into a buffer it
// has handed over, and the host makes every write's content fresh, so a
// store that kept the caller's slice would pass every run and then break
// under a caller that reuses its buffers. So LocalStore hands the store
// buffers of its own and poisons them once the call returns: a store that
// aliased one now holds the poison, and the next comparison of what it
// holds with the reference model (local-store, durability, the local
// views) shows it. The caller's own buffers are never touched.

// maxOwnedContent bounds the contents the wrapper copies and poisons: a
// store that aliases its callers does so whatever the size, the small
// contents of every run show it, and copying the rare multi-megabyte ones
// twice over would cost a sweep several percent for nothing more.
const maxOwnedContent = 64 << 10

// ownContent returns a copy of b that only the wrapper holds, and true;
// or b itself and false when it is empty (nothing to alias) or larger
// than maxOwnedContent.
func ownContent(b []byte) ([]byte, bool) {
	if len(b) == 0 || len(b) > maxOwnedContent {
		return b, false
	}
	return append([]byte(nil), b...), true
}

// poisonContent overwrites every byte of b with a different one.
func poisonContent(b []byte) {
	for i := range b {
		b[i] ^= 0xff
	}
}
