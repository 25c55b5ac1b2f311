package main

import (
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progressThrottle bounds how often the bar redraws.
const progressThrottle = 100 * time.Millisecond

// progress is a bar on stderr, drawn only on a terminal; otherwise (a
// pipe, a CI log, -json, tests) every method does nothing.
type progress struct {
	bar *progressbar.ProgressBar
}

// newProgress draws on w when allowed and w is a terminal.
func newProgress(w io.Writer, allowed bool, total int64) *progress {
	if !allowed || !isTerminal(w) {
		return &progress{}
	}
	return &progress{bar: progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription("seeds"),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString("seeds"),
		progressbar.OptionThrottle(progressThrottle),
		progressbar.OptionClearOnFinish(),
	)}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// set moves the bar to done seeds.
func (p *progress) set(done int) {
	if p.bar != nil {
		p.bar.Set64(int64(done))
	}
}

// finish clears the bar so that the report starts on a clean line.
func (p *progress) finish() {
	if p.bar != nil {
		p.bar.Finish()
		p.bar.Clear()
	}
}

// clear wipes the bar off the line so that a report printed mid-sweep
// starts clean; the next set draws it again.
func (p *progress) clear() {
	if p.bar != nil {
		p.bar.Clear()
	}
}
