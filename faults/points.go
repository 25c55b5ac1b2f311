package faults

// Blocking-point names (Hooks.Block) are built once, not at every call:
// a run passes a few hundred blocking points, and concatenating each name
// anew was a steady share of the harness's allocations.

// recordOps lists every Op a container's calls block at.
var recordOps = []Op{OpConnect, OpRuntimeID, OpFetch, OpStreamNext, OpStreamClose, OpWatermarks,
	OpPush, OpExec, OpEventNext, OpEventClose, OpClose, OpSync}

// containerPoints returns the blocking points of a container for backend:
// "<backend>.<op>" for every op of recordOps. The map is never written
// afterwards, so reading it needs no lock.
func containerPoints(backend string) map[Op]string {
	m := make(map[Op]string, len(recordOps))
	for _, op := range recordOps {
		m[op] = backend + "." + string(op)
	}
	return m
}

// point is the blocking point of op on c ("<backend>.<op>").
func (c *Container) point(op Op) string {
	if p, ok := c.points[op]; ok {
		return p
	}
	return c.backend + "." + string(op) // an op missing from recordOps still works
}

// storePoints are the intent store's blocking points, "store.<op>".
var storePoints = map[StoreOp]string{
	StoreOpGet: "store." + string(StoreOpGet), StoreOpSchedule: "store." + string(StoreOpSchedule),
	StoreOpClear: "store." + string(StoreOpClear), StoreOpList: "store." + string(StoreOpList),
}

func storePoint(op StoreOp) string {
	if p, ok := storePoints[op]; ok {
		return p
	}
	return "store." + string(op)
}

// localPoints are the local store's blocking points, "local.<op>".
var localPoints = func() map[string]string {
	m := map[string]string{}
	for _, op := range []string{"write-file", "apply-upstream", "files", "current-rev", "local-changes",
		"fetch-cursor", "write-fetch-cursor", "write-fetch-cursor-if-ahead", "push-rev", "set-push-rev",
		"push-cursor", "write-push-cursor"} {
		m[op] = "local." + op
	}
	return m
}()

func localPoint(op string) string {
	if p, ok := localPoints[op]; ok {
		return p
	}
	return "local." + op
}
