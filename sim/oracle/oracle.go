package oracle

// Oracle groups the watchers the driver still feeds itself, for the
// properties it still judges (the others' watchers live in their
// checkers). The zero value is ready; a watcher grows to the backends it
// is told of.
type Oracle struct {
	Served ServedLedger    // which entries each backend served first
	Acked  AckedWrites     // host writes the workspace acknowledged
	Truncs TruncationWatch // lost logs the host could not see
}

// New returns an Oracle for a run with the given number of backends.
func New(backends int) Oracle { return Oracle{} }
