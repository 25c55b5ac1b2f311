package main

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// repeatGrace is how soon after the first interrupt a second one counts
// as the same interrupt delivered twice rather than a request to quit.
const repeatGrace = time.Second

// exitInterrupted is the exit code of a sweep ended by SIGINT or SIGTERM,
// the shell's 128 + SIGINT: what ran is still summarised and every failure
// found so far is saved.
const exitInterrupted = 130

// notifyInterrupt returns a channel closed at the first SIGINT or SIGTERM.
// The first signal asks for a clean stop and says so on stderr; a second
// one more than repeatGrace later ends the process at once, by that
// signal. release undoes the registration.
func notifyInterrupt(e env, sub string) (stop <-chan struct{}, release func()) {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	ch := make(chan struct{})
	quit := make(chan struct{})
	go func() {
		var first os.Signal
		select {
		case first = <-sigs:
			fmt.Fprintf(e.stderr, "syncsim %s: %v: stopping after the seeds in flight (signal again to quit at once)\n", sub, first)
			close(ch)
		case <-quit:
			return
		}
		// One interrupt often arrives twice: GNU timeout signals its child
		// and then its process group, a terminal's Ctrl-C reaches every
		// process of the foreground group. A repeat within repeatGrace is
		// that same interrupt; a later one is the user's "quit at once".
		at := time.Now()
		for {
			select {
			case sig := <-sigs:
				if time.Since(at) < repeatGrace {
					continue
				}
				signal.Stop(sigs)
				if p, err := os.FindProcess(os.Getpid()); err == nil {
					_ = p.Signal(sig) // the default action now: the process ends by it
				}
				return
			case <-quit:
				return
			}
		}
	}()
	return ch, func() {
		signal.Stop(sigs)
		close(quit)
	}
}
