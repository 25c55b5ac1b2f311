package faults_test

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/workspace"
)

// A container with a pinned seed: run a command, restart the container,
// and pull from the replacement.
func Example() {
	ctx := context.Background()
	profile := faults.Only(faults.TransportConnect, 0.3)
	fmt.Println("profile:", profile)
	c := faults.NewContainer("b1", faults.NoHooks{}, rand.New(rand.NewPCG(2, 2)), &profile)

	connect := func() workspace.Handle {
		for range 10 {
			h, err := c.Connect(ctx)
			if err == nil {
				return h
			}
			fmt.Println(err)
		}
		panic("no connection after 10 attempts")
	}
	h := connect()
	events, _ := h.Exec(ctx, "write 2")
	for range 10 {
		ev, err := events.Next(ctx)
		if err == io.EOF {
			break
		}
		fmt.Printf("event %d %q exit %d\n", ev.Kind, ev.Data, ev.ExitCode)
	}
	_ = events.Close()

	env, _ := h.Sync().FetchChanges(ctx, workspace.FetchRequest{After: scheduler.Baseline})
	for range 10 {
		ch, err := env.Changes.Next(ctx)
		if err != nil {
			break
		}
		fmt.Println("entry", ch.Cursor())
	}
	_ = env.Changes.Close()

	c.Restart()
	if _, err := h.Sync().Watermarks(ctx, workspace.WatermarksRequest{}); err != nil {
		fmt.Println(err)
	}
	h = connect()
	id, _ := h.RuntimeID()
	fmt.Println("runtime", id, "files", len(c.Files()), "survived", c.Survived())
	// Output:
	// profile: transport-connect=0.3
	// injected transport-connect: connection refused
	// injected transport-connect: connection refused
	// event 0 "wrote 2 files\n" exit 0
	// event 2 "" exit 0
	// entry {2,"/out/1-0"}
	// entry {2,"/out/1-1"}
	// injected restart: websocket closed: container process was replaced
	// injected transport-connect: connection refused
	// runtime b1-rt2 files 0 survived false
}
