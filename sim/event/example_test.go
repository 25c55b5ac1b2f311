package event_test

import (
	"fmt"

	"github.com/syncsim/syncsim/sim/event"
)

// Read trace lines back as events: details by key, a runtime call's named
// values and flags, a store call's intent as fields of its own. Rendering
// an event gives its line back byte for byte.
func ExampleParseEvent() {
	for _, line := range []string{
		`+0000003.600 #5.exec.b0 exec-result error="pull failed" exit=0 sync=pending`,
		`+0000003.100 #3.exec.b1 rt #16 stream-next conn 2 rt b1-rt1 stream 2 served 1 eof`,
		`+0000004.200 #3.exec.b1 store #10 store-schedule b1 {backend b1 runtime b1-rt1 attempt 2 notBefore +0000005.200}`,
	} {
		e, err := event.ParseEvent(line)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s %s %s:", event.Offset(e.At), e.Actor, e.Kind)
		for _, f := range e.Fields {
			fmt.Printf(" %s=%q", f.Key, f.Value)
		}
		fmt.Println()
		if in, ok := e.Field("intent"); ok {
			fields, _ := in.Group()
			intent := event.Event{Fields: fields}
			fmt.Println("  intent attempt", intent.Value("attempt"), "due", intent.Value("notBefore"))
		}
		fmt.Println("  renders the same line:", e.String() == line, "eof:", e.Has("eof"))
	}
	// Output:
	// +0000003.600 #5.exec.b0 exec-result: error="pull failed" exit="0" sync="pending"
	//   renders the same line: true eof: false
	// +0000003.100 #3.exec.b1 rt: seq="16" op="stream-next" conn="2" rt="b1-rt1" stream="2" served="1" eof=""
	//   renders the same line: true eof: true
	// +0000004.200 #3.exec.b1 store: seq="10" op="store-schedule" backend="b1" intent="{backend b1 runtime b1-rt1 attempt 2 notBefore +0000005.200}"
	//   intent attempt 2 due +0000005.200
	//   renders the same line: true eof: false
}
