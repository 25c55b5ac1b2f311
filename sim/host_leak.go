package sim

// checkLeaks is handle-leak, between steps (the rule: oracle.LeakWatch).
func (h *Host) checkLeaks() *Violation {
	if detail, leaked := h.oracle.Leaks.Leak(h.names); leaked {
		return h.fail("handle-leak", detail)
	}
	return nil
}

// containerMarks returns every container's record position.
func (h *Host) containerMarks() []int {
	marks := make([]int, len(h.containers))
	for i, c := range h.containers {
		marks[i] = c.Mark()
	}
	return marks
}
