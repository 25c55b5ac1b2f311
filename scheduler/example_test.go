package scheduler_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/syncsim/syncsim/scheduler"
)

func ExampleNewMemory() {
	ctx := context.Background()
	m := scheduler.NewMemory()
	m.Schedule(ctx, scheduler.Intent{Backend: "web", Attempt: 1,
		NotBefore: time.UnixMilli(1_000), RuntimeID: scheduler.Ptr("rt-1")})
	m.Clear(ctx, "web")
	m.Clear(ctx, "db") // nothing stored: still succeeds, still recorded

	_, ok, _ := m.Get(ctx, "web")
	fmt.Println("stored:", ok)
	fmt.Println("scheduled:", m.Scheduled())
	fmt.Println("cleared:", m.Cleared())
	// Output:
	// stored: false
	// scheduled: [{backend web runtime rt-1 attempt 1 notBefore 1000}]
	// cleared: [web db]
}

func ExampleOpenSQLite() {
	dir, _ := os.MkdirTemp("", "scheduler-example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "intents.db")
	ctx := context.Background()

	s, err := scheduler.OpenSQLite(path)
	if err != nil {
		fmt.Println(err)
		return
	}
	s.Schedule(ctx, scheduler.Intent{Backend: "web", Attempt: 2,
		NotBefore:    time.Unix(0, 1_700_000_000_123_456_789),
		TargetCursor: scheduler.Ptr(scheduler.At(42))})
	s.Close()

	// A host restart: reopen the file, the intent is still there, exact.
	s, err = scheduler.OpenSQLite(path)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	in, ok, err := s.Get(ctx, "web")
	fmt.Println(ok, err, in, in.NotBefore.UnixNano())
	// Output:
	// true <nil> {backend web target {42,null} attempt 2 notBefore 1700000000123} 1700000000123456789
}

func ExampleAlarmTime() {
	t0 := time.UnixMilli(0).UTC()
	intents := []scheduler.Intent{
		{Backend: "a", Attempt: 2, NotBefore: t0.Add(8 * time.Second)},
		{Backend: "b", Attempt: 5, NotBefore: t0.Add(4 * time.Second)}, // == max: one more real pull
		{Backend: "c", Attempt: 6, NotBefore: t0.Add(1 * time.Second)}, // > max: never pulls
	}
	at, ok := scheduler.AlarmTime(intents, 5)
	fmt.Println(at.Sub(t0), ok)
	fmt.Println(scheduler.Due(intents, 5, t0.Add(10*time.Second)))

	// The host handed "a" and "b" over at t0+10s and found them stored
	// unchanged afterwards (exhausted): they must not re-arm the alarm.
	rule := scheduler.AlarmRule{MaxAttempts: 5}.Settle(intents[:2], intents)
	_, ok = rule.Next(intents)
	fmt.Println(ok)
	// Output:
	// 4s true
	// [a b]
	// false
}
