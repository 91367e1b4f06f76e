package browsertest

import (
	"context"
	"encoding/json"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/tracing"
	"github.com/chromedp/chromedp"
)

// TraceEvent is one event of Chromium's own trace (the Trace Event
// Format): Ts and Dur in microseconds of the browser's monotonic clock,
// Dur the wall time of a complete event (Ph "X"), Tdur the CPU time its
// thread spent in it. On a busy machine the two differ: a thread waiting
// for a core counts in Dur only.
type TraceEvent struct {
	Name string          `json:"name"`
	Cat  string          `json:"cat"`
	Ph   string          `json:"ph"`
	Ts   float64         `json:"ts"`
	Dur  float64         `json:"dur"`
	Tdur float64         `json:"tdur"`
	Pid  int             `json:"pid"`
	Tid  int             `json:"tid"`
	Args json.RawMessage `json:"args"`
}

// trace collects the events of a recording; guarded by Page.mu.
type trace struct {
	events []TraceEvent
	done   chan struct{} // closed when the browser has sent everything
}

// StartTrace starts recording the browser's trace of the given categories
// (for measurements, not for assertions: see StopTrace).
func (p *Page) StartTrace(categories ...string) {
	p.t.Helper()
	p.mu.Lock()
	p.trace = &trace{done: make(chan struct{})}
	p.mu.Unlock()
	p.do("start the trace", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, tracing.Start, tracing.StartParams{
			TraceConfig: &tracing.TraceConfig{IncludedCategories: categories},
		})
		return err
	}))
}

// StopTrace ends the recording StartTrace began and returns its events in
// the order the browser sent them.
func (p *Page) StopTrace() []TraceEvent {
	p.t.Helper()
	p.do("stop the trace", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, tracing.End, cdp.Empty{})
		return err
	}))
	p.mu.Lock()
	tr := p.trace
	p.mu.Unlock()
	select {
	case <-tr.done:
	case <-time.After(waitLimit):
		p.t.Fatalf("browsertest: the trace did not complete within %v", waitLimit)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.trace = nil
	return tr.events
}

// traceEvent keeps what a recording sends; it reports whether ev was one
// of its events. It runs on the tab's reader goroutine.
func (p *Page) traceEvent(ev any) bool {
	switch e := ev.(type) {
	case *tracing.EventDataCollected:
		p.mu.Lock()
		defer p.mu.Unlock()
		if p.trace == nil {
			return true
		}
		for _, raw := range e.Value {
			var te TraceEvent
			if json.Unmarshal(raw, &te) == nil {
				p.trace.events = append(p.trace.events, te)
			}
		}
		return true
	case *tracing.EventTracingComplete:
		p.mu.Lock()
		defer p.mu.Unlock()
		if p.trace != nil {
			close(p.trace.done)
		}
		return true
	}
	return false
}
