package scenarios

// BenchTraceKeep is the trace lines a benchmarked run holds, as a sweep
// does (cmd/syncsim keeps 64): the hash still covers every line.
const BenchTraceKeep = 64
