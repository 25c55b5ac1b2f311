package main

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

// exitInterrupted is the exit code of a sweep ended by SIGINT or SIGTERM,
// the shell's 128 + SIGINT: what ran is still summarised and every failure
// found so far is saved.
const exitInterrupted = 130

// notifyInterrupt returns a channel closed at the first SIGINT or SIGTERM.
// The first signal asks for a clean stop and says so on stderr; it also
// hands the signals back to the runtime, so a second one ends the process
// at once. release undoes the registration.
func notifyInterrupt(e env, sub string) (stop <-chan struct{}, release func()) {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	ch := make(chan struct{})
	quit := make(chan struct{})
	go func() {
		select {
		case sig := <-sigs:
			signal.Stop(sigs)
			fmt.Fprintf(e.stderr, "syncsim %s: %v: stopping after the seeds in flight (signal again to quit at once)\n", sub, sig)
			close(ch)
		case <-quit:
		}
	}()
	return ch, func() {
		signal.Stop(sigs)
		close(quit)
	}
}
