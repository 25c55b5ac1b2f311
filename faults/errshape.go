package faults

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/syncsim/syncsim/workspace"
)

// Error shapes. SPEC 5.2 classifies a transport failure by what an error
// or one of its causes, up to 8 levels deep, is: a TransportError or
// PreDispatchTransportError, the sentinel of either (directly or through an
// Is method), or a message holding one of the transport phrases; joined
// errors are walked branch by branch. A fault injector that only ever
// spoke in phrases would leave every other branch of the classifier
// untested, so each injected transport failure takes one shape, drawn from
// the planter's own stream, that keeps its class (transport, or the
// narrower pre-dispatch) and changes how the class is carried. The
// InjectedError stays in every chain (errors.As finds its Kind; errors.Is
// finds ErrInjected), with a message free of any phrase unless the shape
// is the phrase itself.

// errClass is how the workspace must classify an injected failure.
type errClass int

const (
	classNone        errClass = iota // not a transport failure
	classTransport                   // transport, not provably before dispatch
	classPreDispatch                 // transport, provably before dispatch
)

// classOf is the class of each planted message, as its phrase (SPEC 5.2)
// decides; messages built with a prefix (store, local store) are not
// transport failures.
var classOf = map[string]errClass{
	msgConnect:      classTransport,
	msgPreDispatch:  classPreDispatch,
	msgPostDispatch: classTransport,
	msgMidStream:    classTransport,
	msgCrashed:      classTransport,
	msgCrashConnect: classTransport,
	msgRestarted:    classTransport,
	msgBroken:       classTransport,
}

// neutralMsg replaces a phrase when the shape carries the class otherwise.
const neutralMsg = "the peer went away"

// errShapes are the shapes, in draw order; phrase is the message alone.
var errShapes = []string{"phrase", "typed", "sentinel", "is-method", "deep", "joined"}

// classifierDepth is SPEC 5.2's bound: the classifiers look at an error
// and its causes down to 7 levels below it (8 levels in all). A class
// carried deeper is no class at all: the failure is not a transport one.
const classifierDepth = 8

// maxShapeDepth is the deepest "deep" carries a class: one level past the
// bound, so both sides of it are planted (the deepest level the classifiers
// must see, 7, and the first they must not, 8), and a classifier that
// looks one level too far or too short misjudges some failure.
const maxShapeDepth = classifierDepth + 1

// shape returns e in a shape drawn from r, or e itself for a message that
// is not a transport failure. It counts the shape in counts. classified
// keeps the class within the classifiers' reach (a drawn depth past it
// becomes the deepest they see).
func shape(r *rand.Rand, e *InjectedError, counts map[string]int, classified bool) error {
	class := classOf[e.Msg]
	if class == classNone {
		return e
	}
	name := errShapes[r.IntN(len(errShapes))]
	if name == "phrase" {
		counts[name]++
		e.Msg = phraseMessage(r, class, e.Kind)
		return e
	}
	e.Msg = neutralMsg + " (" + e.Kind.String() + ")"
	switch name {
	case "deep":
		// The class sits at a drawn depth: 1 up to maxShapeDepth causes
		// below the top. Past the classifiers' bound the failure is no
		// longer a transport one, and the harness records it so.
		depth := 1 + r.IntN(maxShapeDepth)
		if classified {
			depth = min(depth, classifierDepth-1)
		}
		kind := errShapes[1+r.IntN(3)]
		inner := carrier(kind, class, e)
		for i := depth - carrierDepth(kind); i > 0; i-- {
			inner = fmt.Errorf("layer %d: %w", i, inner)
		}
		if depth >= classifierDepth {
			e.class, e.unclassed = classNone, true
			name = "too-deep"
		}
		counts[name]++
		return inner
	case "joined":
		counts[name]++
		return errors.Join(errors.New("closing the session also failed"), carrier(errShapes[1+r.IntN(3)], class, e))
	}
	counts[name]++
	return carrier(name, class, e)
}

// carrierDepth is how far below its top a carrier holds the class: the
// sentinel shape joins the sentinel one level down; a typed error and an
// Is method carry it at the top.
func carrierDepth(name string) int {
	if name == "sentinel" {
		return 1
	}
	return 0
}

// carrier wraps e so that the class is carried by a type (typed), by the
// sentinel in the chain (sentinel) or by an Is method (is-method).
func carrier(name string, class errClass, e *InjectedError) error {
	sentinel := workspace.ErrTransport
	if class == classPreDispatch {
		sentinel = workspace.ErrPreDispatchTransport
	}
	switch name {
	case "typed":
		te := workspace.TransportError{Msg: e.Error(), Cause: e}
		if class == classPreDispatch {
			return &workspace.PreDispatchTransportError{TransportError: te}
		}
		return &te
	case "sentinel":
		return fmt.Errorf("%w: %w", sentinel, e)
	default: // is-method
		return &classedError{InjectedError: e, pre: class == classPreDispatch}
	}
}

// classedError says its class only through its Is method, as a transport
// library's own error type might.
type classedError struct {
	*InjectedError
	pre bool
}

func (e *classedError) Unwrap() error { return e.InjectedError }

func (e *classedError) Is(target error) bool {
	return target == workspace.ErrTransport || (e.pre && target == workspace.ErrPreDispatchTransport)
}

// specTransportPhrases are the transport phrases of SPEC 5.2 other than the
// pre-dispatch one, written out here from the SPEC: the harness never reads
// the workspace's own list, so a phrase the classifier lost, or a match
// that stopped ignoring case, shows as a failure the workspace no longer
// treats as transport.
var specTransportPhrases = []string{
	"rpc session was shut down",
	"rpc was canceled",
	"websocket is not open",
	"websocket closed",
	"socket hang up",
	"connection refused",
	"econnrefused",
	"econnreset",
	"network is unreachable",
	"container exited",
}

// specPreDispatchPhrase is SPEC 5.2's only pre-dispatch phrase.
const specPreDispatchPhrase = "rpc stub after it has been disposed"

// phraseMessage is the message of a phrase-shaped failure: one phrase of
// its class, drawn, in a drawn letter case (SPEC 5.2 matches ignoring
// case), and the fault kind for the reader.
func phraseMessage(r *rand.Rand, class errClass, k Kind) string {
	p := specPreDispatchPhrase
	if class == classTransport {
		p = specTransportPhrases[r.IntN(len(specTransportPhrases))]
	}
	return casing(r.IntN(4), p) + " (" + k.String() + ")"
}

// casing writes p as it is (0), upper-case (1), with each word capitalised
// (2) or in alternating case (3).
func casing(style int, p string) string {
	b := []byte(p)
	for i, c := range b {
		upper := false
		switch style {
		case 1:
			upper = true
		case 2:
			upper = i == 0 || b[i-1] == ' '
		case 3:
			upper = i%2 == 1
		}
		if upper && c >= 'a' && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}
