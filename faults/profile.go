package faults

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
)

// Profile says which fault kinds are on and how likely each is. For a
// per-call kind the value is the probability that one call (or one stream)
// fails; for an event kind (Kind.Event) it is the weight the scenario
// generator gives that fault operation. A kind is on iff its value is > 0.
//
// The zero Profile has every kind off. Profile is comparable.
type Profile struct {
	p [NumKinds]float64
}

// drawChoices are the probabilities (or weights) DrawProfile picks from.
var drawChoices = [...]float64{0.02, 0.05, 0.1, 0.2, 0.3}

// allOnProbability is the value AllOn gives every kind.
const allOnProbability = 0.1

// DrawProfile draws a swarm profile: each kind is on with probability 1/2,
// with a value drawn from a small set between 0.02 and 0.3. It always makes
// exactly two draws per kind, in kind order, so the stream it leaves behind
// does not depend on which kinds came out on.
func DrawProfile(r *rand.Rand) Profile {
	var pr Profile
	for _, k := range Kinds() {
		on := r.IntN(2) == 0
		p := drawChoices[r.IntN(len(drawChoices))]
		if on {
			pr.Set(k, p)
		}
	}
	return pr
}

// AllOn returns a profile with every kind on at probability (weight) 0.1.
func AllOn() Profile {
	var pr Profile
	for _, k := range Kinds() {
		pr.Set(k, allOnProbability)
	}
	return pr
}

// Off returns a profile with every kind off.
func Off() Profile { return Profile{} }

// Only returns a profile with kind k alone on at value p.
func Only(k Kind, p float64) Profile {
	var pr Profile
	pr.Set(k, p)
	return pr
}

// Set sets the value of k; p <= 0 turns k off, p is capped at 1. Invalid
// kinds are ignored.
func (pr *Profile) Set(k Kind, p float64) {
	if !k.Valid() {
		return
	}
	pr.p[k-1] = min(max(p, 0), 1)
}

// Get returns the value of k (0 when off or invalid).
func (pr Profile) Get(k Kind) float64 {
	if !k.Valid() {
		return 0
	}
	return pr.p[k-1]
}

// On reports whether k is on.
func (pr Profile) On(k Kind) bool { return pr.Get(k) > 0 }

// profileOff is how String prints a profile with every kind off.
const profileOff = "off"

// String renders the profile as one stable line: the kinds that are on, in
// kind order, as kind=value separated by spaces, or "off". ParseProfile
// reads it back exactly.
func (pr Profile) String() string {
	var parts []string
	for _, k := range Kinds() {
		if pr.On(k) {
			parts = append(parts, k.String()+"="+strconv.FormatFloat(pr.Get(k), 'g', -1, 64))
		}
	}
	if len(parts) == 0 {
		return profileOff
	}
	return strings.Join(parts, " ")
}

// ParseProfile reads the form String prints: space-separated kind=value
// tokens in any order (each kind at most once), or "off". An error names
// the bad token.
func ParseProfile(s string) (Profile, error) {
	var pr Profile
	fields := strings.Fields(s)
	if len(fields) == 1 && fields[0] == profileOff {
		return pr, nil
	}
	var seen [kindEnd]bool
	for _, tok := range fields {
		name, val, ok := strings.Cut(tok, "=")
		if !ok {
			return Profile{}, fmt.Errorf("faults: profile token %q: want kind=value", tok)
		}
		k, err := ParseKind(name)
		if err != nil {
			return Profile{}, fmt.Errorf("faults: profile token %q: unknown fault kind", tok)
		}
		if seen[k] {
			return Profile{}, fmt.Errorf("faults: profile token %q: kind given twice", tok)
		}
		seen[k] = true
		p, err := strconv.ParseFloat(val, 64)
		if err != nil || !(p > 0 && p <= 1) {
			return Profile{}, fmt.Errorf("faults: profile token %q: value must be a number in (0,1]", tok)
		}
		pr.Set(k, p)
	}
	return pr, nil
}

// draw reports whether a per-call fault of kind k fires, drawing from r
// only when k is on so that a profile with k off consumes nothing for it.
func (pr *Profile) draw(r *rand.Rand, k Kind) bool {
	if pr == nil || !pr.On(k) {
		return false
	}
	return r.Float64() < pr.Get(k)
}
