package faults

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Site names the kind of runtime call an armed fault waits for
// (Container.Arm). Sites are finer than Ops where a fault needs it: a
// Watermarks call is "settle" with Settle set and "watermarks" without, and
// "stream" and "events" are the reading of a change stream and of a
// command's event stream.
type Site string

// The sites, in the order Sites lists them.
const (
	SiteConnect    Site = "connect"
	SiteFetch      Site = "fetch"
	SiteStream     Site = "stream"
	SiteWatermarks Site = "watermarks"
	SiteSettle     Site = "settle"
	SitePush       Site = "push"
	SiteExec       Site = "exec"
	SiteEvents     Site = "events"
)

var sites = []Site{SiteConnect, SiteFetch, SiteStream, SiteWatermarks, SiteSettle, SitePush, SiteExec, SiteEvents}

// Sites returns every site in stable order.
func Sites() []Site { return slices.Clone(sites) }

// ParseSite reads a site name.
func ParseSite(s string) (Site, error) {
	if slices.Contains(sites, Site(s)) {
		return Site(s), nil
	}
	return "", fmt.Errorf("faults: unknown call site %q (known: %s)", s, joinSites(sites))
}

// Streamed reports whether the site is the reading of a stream, where an
// armed fault fires after Armed.After entries.
func (s Site) Streamed() bool { return s == SiteStream || s == SiteEvents }

// armSites says where each per-call kind may be armed: at the calls that
// draw it at random. The event kinds crash, restart and lost-identity may
// be armed at every site.
var armSites = map[Kind][]Site{
	TransportConnect:      {SiteConnect},
	TransportPreDispatch:  {SitePush, SiteExec},
	TransportPostDispatch: {SiteFetch, SiteWatermarks, SiteSettle, SitePush, SiteExec},
	TransportMidStream:    {SiteStream, SiteEvents},
	SettleFailure:         {SiteSettle},
	RPCError:              {SiteFetch},
}

// ArmSites returns the sites a fault of kind k can be armed at (nil when
// it cannot be armed): every site for crash, restart and lost-identity;
// for a per-call kind, the sites whose calls draw it.
func ArmSites(k Kind) []Site {
	switch k {
	case Crash, Restart, LostIdentity:
		return Sites()
	}
	return slices.Clone(armSites[k])
}

// maxArmAfter bounds Armed.After: a stream serves at most a few thousand
// entries in any scenario, so a larger count is a typo.
const maxArmAfter = 1 << 20

// Armed is one fault armed for the next call at a site (Container.Arm).
type Armed struct {
	Kind Kind
	On   Site
	// After is, for a stream site, how many entries the stream serves
	// before the fault fires; 0 elsewhere.
	After int
}

// Check reports what is wrong with a, or nil: the kind must be a per-call
// kind at one of the sites that draw it (armSites), or crash, restart or
// lost-identity at any site; After only on a stream site.
func (a Armed) Check() error {
	if !slices.Contains(sites, a.On) {
		return fmt.Errorf("faults: unknown call site %q (known: %s)", a.On, joinSites(sites))
	}
	ok := ArmSites(a.Kind)
	if len(ok) == 0 {
		return fmt.Errorf("faults: %s cannot be armed at a call (armable: %s)", a.Kind, armableKinds())
	}
	if !slices.Contains(ok, a.On) {
		return fmt.Errorf("faults: %s cannot be armed on=%s (only on %s)", a.Kind, a.On, joinSites(ok))
	}
	if a.After < 0 || a.After > maxArmAfter {
		return fmt.Errorf("faults: after=%d out of range [0, %d]", a.After, maxArmAfter)
	}
	if a.After != 0 && !a.On.Streamed() {
		return fmt.Errorf("faults: after= applies to on=stream and on=events only, not on=%s", a.On)
	}
	return nil
}

// String renders a as "<kind> on=<site>[ after=<n>]".
func (a Armed) String() string {
	s := a.Kind.String() + " on=" + string(a.On)
	if a.After != 0 {
		s += " after=" + strconv.Itoa(a.After)
	}
	return s
}

func armableKinds() string {
	var names []string
	for k := Crash; k < kindEnd; k++ {
		if len(ArmSites(k)) > 0 {
			names = append(names, k.String())
		}
	}
	return strings.Join(names, " ")
}

func joinSites(ss []Site) string {
	names := make([]string, len(ss))
	for i, s := range ss {
		names[i] = string(s)
	}
	return strings.Join(names, " ")
}

// Arm arms one fault: the next call at a.On that reaches the point where
// a.Kind is drawn fails with it (or, for crash, restart and lost-identity,
// the event happens at the start of that call), and the fault is then
// cleared. Arms at one site queue in order: only the first waits for its
// call, the next one for the call after. An armed fault stands for the
// random draw of its call: the draw is not made, so arming never touches
// the random stream and a run without arms is unchanged. Like the random
// draws, armed faults fire only while faults are on (SetFaults). A call
// that fails before the armed point (a broken connection, an earlier
// fault) leaves the fault armed.
//
// At a stream site the fault is taken by the next stream opened (a
// FetchChanges or an Exec that succeeds) and fires at its Next once After
// entries were served, or at its end when it has fewer. A stream with an
// armed fault draws no random mid-stream failure.
//
// Crash is Crash(0): the call fails with "injected crash: container
// exited" and the next connect relaunches the container. Restart replaces
// the process and the call fails the same way. Lost-identity mints a new
// id for later connections and the call proceeds.
func (c *Container) Arm(a Armed) error {
	if err := a.Check(); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.armed = append(c.armed, a)
	return nil
}

// armedFaults returns the faults armed and not yet fired, in order.
func (c *Container) armedFaults() []Armed {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.armed)
}

// headLocked returns the position of the first fault armed at site, or -1.
func (c *Container) headLocked(site Site) int {
	for i, a := range c.armed {
		if a.On == site {
			return i
		}
	}
	return -1
}

// takeArmLocked removes and returns the first fault armed at site when its
// kind is k (while faults are on).
func (c *Container) takeArmLocked(site Site, k Kind) bool {
	i := c.headLocked(site)
	if !c.faultsOn || i < 0 || c.armed[i].Kind != k {
		return false
	}
	c.armed = slices.Delete(c.armed, i, i+1)
	return true
}

// faultLocked decides whether the per-call fault k fires at this point of
// a call at site: an armed one first (no draw), else the random draw.
// armed reports that it was the armed one.
func (c *Container) faultLocked(site Site, k Kind) (fire, armed bool) {
	if c.takeArmLocked(site, k) {
		return true, true
	}
	return c.drawLocked(k), false
}

// eventArmLocked fires an event fault (crash, restart, lost-identity)
// armed at the head of site's queue, at the start of a call there. It
// returns the kind fired (NoFault when none) and the error the call fails
// with (nil for lost-identity, which lets the call proceed).
func (c *Container) eventArmLocked(site Site) (Kind, error) {
	i := c.headLocked(site)
	if !c.faultsOn || i < 0 || !c.armed[i].Kind.Event() {
		return NoFault, nil
	}
	k := c.armed[i].Kind
	c.armed = slices.Delete(c.armed, i, i+1)
	return k, c.fireEventLocked(k)
}

// fireEventLocked carries out an armed event fault inside a call.
func (c *Container) fireEventLocked(k Kind) error {
	switch k {
	case Crash:
		c.crashLocked(0)
	case Restart:
		c.restartLocked()
	case LostIdentity:
		c.loseIdentityLocked(false)
		return nil
	}
	return c.secrets.injected(k, msgCrashed)
}

// takeStreamArmLocked hands a new stream at site the first fault armed
// there, if any.
func (c *Container) takeStreamArmLocked(site Site) (Armed, bool) {
	i := c.headLocked(site)
	if !c.faultsOn || i < 0 {
		return Armed{}, false
	}
	a := c.armed[i]
	c.armed = slices.Delete(c.armed, i, i+1)
	return a, true
}

// streamArm is the armed fault a stream carries.
type streamArm struct {
	set bool
	Armed
}

// due reports whether the armed fault fires at a Next that has served
// entries so far, with more entries left (or not).
func (s streamArm) due(served int, more bool) bool {
	return s.set && (served >= s.After || !more)
}

// fireStreamLocked fires a stream's armed fault at a Next: the error the
// Next fails with, or nil when it proceeds (lost-identity).
func (c *Container) fireStreamLocked(a Armed) error {
	if a.Kind == TransportMidStream {
		return c.secrets.injected(TransportMidStream, msgMidStream)
	}
	return c.fireEventLocked(a.Kind)
}
