package workspace

import (
	"math"
	"testing"
	"time"

	"github.com/benbjohnson/clock"
	"github.com/google/go-cmp/cmp"
)

func TestNewValidatesOptions(t *testing.T) {
	const ms = time.Millisecond
	base := func() Options {
		return Options{
			Backends: []BackendConfig{{ID: "sandbox", Backend: &fakeBackend{}}},
			Clock:    clock.NewMock(),
			Store:    NewMemoryStore(),
		}
	}
	tests := []struct {
		name   string
		change func(*Options)
		want   string
	}{
		{"defaults", func(*Options) {}, ""},
		{"initial negative", func(o *Options) { o.Retry.InitialDelay = -ms }, "Workspace retry.initialDelayMs must be a positive integer"},
		{"initial fractional ms", func(o *Options) { o.Retry.InitialDelay = 1500 * time.Microsecond }, "Workspace retry.initialDelayMs must be a positive integer"},
		{"largest whole-ms Duration ok", func(o *Options) { o.Retry.InitialDelay = math.MaxInt64 / ms * ms }, ""},
		{"max negative", func(o *Options) { o.Retry.MaxDelay = -ms }, "Workspace retry.maxDelayMs must be a positive integer"},
		{"max fractional", func(o *Options) { o.Retry.MaxDelay = ms + 1 }, "Workspace retry.maxDelayMs must be a positive integer"},
		{"attempts negative", func(o *Options) { o.Retry.MaxAttempts = -1 }, "Workspace retry.maxAttempts must be a positive integer"},
		{"attempts 2^53", func(o *Options) { o.Retry.MaxAttempts = 1 << 53 }, "Workspace retry.maxAttempts must be a positive integer"},
		{"first failure wins", func(o *Options) { o.Retry = RetryOptions{InitialDelay: -1, MaxDelay: -1, MaxAttempts: -1} }, "Workspace retry.initialDelayMs must be a positive integer"},
		{"max before attempts", func(o *Options) { o.Retry = RetryOptions{MaxDelay: -1, MaxAttempts: -1} }, "Workspace retry.maxDelayMs must be a positive integer"},
		{"no cross-validation", func(o *Options) { o.Retry = RetryOptions{InitialDelay: 500 * ms, MaxDelay: 100 * ms} }, ""},
		{"push budget entries negative", func(o *Options) { o.PushBatch.MaxEntries = -1 }, "workspace: Options.PushBatch.MaxEntries is -1; want a positive count (0 takes 256)"},
		{"push budget bytes negative", func(o *Options) { o.PushBatch.MaxBytes = -2 }, "workspace: Options.PushBatch.MaxBytes is -2; want a positive size (0 takes 4194304)"},
		{"push budget of one", func(o *Options) { o.PushBatch = PushBudget{MaxEntries: 1, MaxBytes: 1} }, ""},
		{"no clock", func(o *Options) { o.Clock = nil }, "workspace: Options.Clock is required (production passes clock.New())"},
		{"no store", func(o *Options) { o.Store = nil }, "workspace: Options.Store is required"},
		{"no backends", func(o *Options) { o.Backends = nil }, "workspace: Options.Backends is empty; at least one backend is required"},
		{"empty id", func(o *Options) { o.Backends = append(o.Backends, BackendConfig{Backend: &fakeBackend{}}) }, "workspace: Options.Backends[1] has an empty id"},
		{"duplicate id", func(o *Options) { o.Backends = append(o.Backends, o.Backends[0]) }, `workspace: duplicate backend id "sandbox"`},
		{"nil backend", func(o *Options) { o.Backends = []BackendConfig{{ID: "x"}} }, `workspace: backend "x" has a nil Backend`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := base()
			tc.change(&o)
			_, err := New(o)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tc.want {
				t.Fatalf("New error = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestRetryDelayFollowsBackoffWithSaturation(t *testing.T) {
	const ms = time.Millisecond
	w := &Workspace{initialDelay: DefaultInitialDelay, maxDelay: DefaultMaxDelay}
	var got []time.Duration
	for a := -1; a <= 7; a++ {
		got = append(got, w.retryDelay(a))
	}
	want := []time.Duration{1000 * ms, 1000 * ms, 1000 * ms, 2000 * ms, 4000 * ms, 8000 * ms, 16000 * ms, 32000 * ms, 60000 * ms}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	w = &Workspace{initialDelay: 100 * ms, maxDelay: 150 * ms}
	if got := []time.Duration{w.retryDelay(1), w.retryDelay(2), w.retryDelay(3), w.retryDelay(1 << 40)}; !cmp.Equal(got, []time.Duration{100 * ms, 150 * ms, 150 * ms, 150 * ms}) {
		t.Fatalf("capped delays = %v", got)
	}
	top := math.MaxInt64 / ms * ms
	huge := &Workspace{initialDelay: top / 2, maxDelay: top}
	if got := huge.retryDelay(5); got != top {
		t.Fatalf("saturated delay = %v", got)
	}
}

func TestUnknownBackendIsRejectedBeforeTheFIFO(t *testing.T) {
	h := newHarness(t, &fakeBackend{}, 0)
	_, err := h.ws.RetryPendingSync(ctx0, "nope", nil)
	if want := `Workspace: no backend with id "nope". Configured backends: "sandbox".`; errorText(err) != want {
		t.Fatalf("err = %v, want %q", err, want)
	}
	if len(h.ws.tails) != 0 {
		t.Fatalf("unknown id entered the FIFO: %v", h.ws.tails)
	}
}
