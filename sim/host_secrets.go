package sim

import (
	"github.com/syncsim/syncsim/faults"
)

// The secrecy property (SPEC 1.4) is oracle.SecrecyChecker's. Every error
// the fault injector makes carries a fake credential (faults.Secrets) in
// one of the forms the redactor must catch, or past the truncation cut; the
// driver plants them, lends the checker the planters' near-miss images
// (hostRecords.SpanImage) and hands it the intent store's listing and the
// trace's records at each step's end (StepEnd.Intents; StepEnd.Trace and
// RunEnd.Trace when asked, history.SnapTrace).

// plantSecrets gives every container its planter, each on its own stream
// so that planting never moves a fault draw.
func (h *Host) plantSecrets() {
	for i, c := range h.backends.containers {
		s := faults.NewSecrets(Stream(h.cfg.Seed, "secrets/"+BackendLabel(i)))
		c.PlantSecrets(s)
		h.secrets.all = append(h.secrets.all, s)
	}
	// One planter for the intent store across host starts: the wrapper is
	// rebuilt at each start, the stream goes on.
	h.secrets.store = faults.NewSecrets(Stream(h.cfg.Seed, "secrets/store"))
	h.secrets.all = append(h.secrets.all, h.secrets.store)
	h.secrets.local = faults.NewSecrets(Stream(h.cfg.Seed, "secrets/local"))
	h.secrets.all = append(h.secrets.all, h.secrets.local)
}

// spanImage is the recorded image of the near-miss span id, from whichever
// planter planted it.
func (h *Host) spanImage(id string) (string, bool) {
	for _, p := range h.secrets.all {
		if img, ok := p.Image(id); ok {
			return img, true
		}
	}
	return "", false
}

// plantedCounts adds what the planters planted, per form, to s.
func (h *Host) plantedCounts(s map[string]int) {
	for _, p := range h.secrets.all {
		for form, n := range p.Planted() {
			s["planted "+form] += n
		}
		for name, n := range p.Shapes() {
			s["error-shape "+name] += n
		}
	}
}
