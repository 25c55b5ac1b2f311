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

// maxShapeDepth bounds the layers "deep" puts over a shape, so that its
// class sits at most 7 causes down, inside the classifiers' 8 levels.
const maxShapeDepth = 5

// shape returns e in a shape drawn from r, or e itself for a message that
// is not a transport failure. It counts the shape in counts.
func shape(r *rand.Rand, e *InjectedError, counts map[string]int) error {
	class := classOf[e.Msg]
	if class == classNone {
		return e
	}
	name := errShapes[r.IntN(len(errShapes))]
	counts[name]++
	if name == "phrase" {
		e.Msg = phraseMessage(r, class, e.Kind)
		return e
	}
	e.Msg = neutralMsg + " (" + e.Kind.String() + ")"
	switch name {
	case "deep":
		inner := carrier(errShapes[1+r.IntN(3)], class, e)
		for i := 1 + r.IntN(maxShapeDepth); i > 0; i-- {
			inner = fmt.Errorf("layer %d: %w", i, inner)
		}
		return inner
	case "joined":
		return errors.Join(errors.New("closing the session also failed"), carrier(errShapes[1+r.IntN(3)], class, e))
	}
	return carrier(name, class, e)
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
