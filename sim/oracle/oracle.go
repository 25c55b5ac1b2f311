package oracle

// Oracle groups the watchers a run feeds. The zero value is ready for a run
// of any number of backends except for ResendWatch, which New sizes; a
// watcher grows to the backends it is told of.
type Oracle struct {
	Served ServedLedger    // which entries each backend served first
	Acked  AckedWrites     // host writes the workspace acknowledged
	FIFO   FIFOLedger      // per backend: read-then-write sections of the intent store
	Spans  SyncSpans       // per backend: the open change stream
	Truncs TruncationWatch // lost logs the host could not see
	Resend ResendWatch     // per backend: the push mark the host recorded
	Leaks  LeakWatch       // per backend: connections left open
	Target PushTargetWatch // per backend: each push attempt's target bound
}

// New returns an Oracle for a run with the given number of backends.
func New(backends int) Oracle {
	var o Oracle
	o.Resend.Init(backends)
	return o
}
