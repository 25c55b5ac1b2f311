package faults

import (
	"math/rand/v2"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

func TestKindNames(t *testing.T) {
	want := "crash restart lost-identity truncated-log transport-connect transport-pre-dispatch transport-post-dispatch transport-mid-stream settle-failure store-get store-schedule store-clear host-restart rpc-error local-store"
	var names []string
	for _, k := range Kinds() {
		names = append(names, k.String())
		if got, err := ParseKind(k.String()); err != nil || got != k {
			t.Errorf("ParseKind(%q) = %v, %v", k, got, err)
		}
	}
	if got := strings.Join(names, " "); got != want {
		t.Errorf("kinds = %q", got)
	}
	if _, err := ParseKind("none"); err == nil {
		t.Error("ParseKind(none) succeeded")
	}
}

func genProfile(t *rapid.T) Profile {
	var pr Profile
	for _, k := range Kinds() {
		if rapid.Bool().Draw(t, k.String()+"-on") {
			pr.Set(k, rapid.Float64Range(1e-9, 1).Draw(t, k.String()))
		}
	}
	return pr
}

func TestProfileRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pr := genProfile(t)
		s := pr.String()
		if strings.Contains(s, "\n") {
			t.Fatalf("profile line has a newline: %q", s)
		}
		got, err := ParseProfile(s)
		if err != nil {
			t.Fatalf("ParseProfile(%q): %v", s, err)
		}
		if got != pr {
			t.Fatalf("round trip: %q -> %q", s, got)
		}
	})
}

func TestProfileStrings(t *testing.T) {
	if got := Off().String(); got != "off" {
		t.Errorf("Off = %q", got)
	}
	pr := Only(SettleFailure, 0.2)
	pr.Set(Crash, 0.05)
	if got := pr.String(); got != "crash=0.05 settle-failure=0.2" {
		t.Errorf("String = %q", got)
	}
	for _, tc := range []struct{ in, bad string }{
		{"crash=0.1 bogus=0.2", `"bogus=0.2"`},
		{"crash", `"crash"`},
		{"crash=x", `"crash=x"`},
		{"crash=0", `"crash=0"`},
		{"crash=1.5", `"crash=1.5"`},
		{"crash=0.1 crash=0.2", `"crash=0.2"`},
	} {
		_, err := ParseProfile(tc.in)
		if err == nil || !strings.Contains(err.Error(), tc.bad) {
			t.Errorf("ParseProfile(%q) = %v, want an error naming %s", tc.in, err, tc.bad)
		}
	}
}

func TestDrawProfile(t *testing.T) {
	on := make([]int, NumKinds+1)
	r := rand.New(rand.NewPCG(5, 5))
	const n = 400
	for range n {
		pr := DrawProfile(r)
		for _, k := range Kinds() {
			if pr.On(k) {
				on[k]++
				if p := pr.Get(k); p < 0.02 || p > 0.3 {
					t.Fatalf("%s = %v out of range", k, p)
				}
			}
		}
	}
	for _, k := range Kinds() {
		if on[k] < n/4 || on[k] > 3*n/4 {
			t.Errorf("%s on in %d of %d profiles", k, on[k], n)
		}
	}
	a := DrawProfile(rand.New(rand.NewPCG(9, 9)))
	b := DrawProfile(rand.New(rand.NewPCG(9, 9)))
	if a != b {
		t.Errorf("same seed, different profiles: %s / %s", a, b)
	}
	for _, k := range Kinds() {
		if !AllOn().On(k) || Off().On(k) {
			t.Errorf("AllOn/Off wrong for %s", k)
		}
	}
}
