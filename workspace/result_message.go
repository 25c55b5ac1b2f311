package workspace

import (
	"github.com/syncsim/syncsim/workspace/internal/plant"
	"strings"
)

// resultMessage is the error text a result carries: safeErrorMessage
// (SPEC 1.4), or, under planted bug plant.NoRedaction, the same text with
// credentials left in — the class of bug where an error string reaches a
// caller, a log or a trace unredacted.
func (w *Workspace) resultMessage(err error) string {
	if !w.mut.Has(plant.NoRedaction) {
		return safeErrorMessage(err)
	}
	msg := strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, err.Error())
	return truncateUTF16(msg, maxSafeErrorLength)
}
