package browsertest

import (
	"cmp"
	"context"
	"fmt"
	"path"
	"slices"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/profiler"
	"github.com/chromedp/chromedp"
)

// ProfileEntry is one function's share of a JavaScript CPU profile: the
// time the page's thread spent in it (Self) and in it or what it called
// (Total), in ms, from V8's sampling profiler.
type ProfileEntry struct {
	Function    string // name, file and line
	Self, Total float64
}

// StartProfile starts V8's sampling profiler in the page (samples every
// 100 µs), for measurements: see StopProfile.
func (p *Page) StartProfile() {
	p.t.Helper()
	p.do("start the profiler", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := cdp.Call(ctx, tg, profiler.Enable, cdp.Empty{}); err != nil {
			return err
		}
		if _, err := cdp.Call(ctx, tg, profiler.SetSamplingInterval, profiler.SetSamplingIntervalParams{Interval: 100}); err != nil {
			return err
		}
		_, err := cdp.Call(ctx, tg, profiler.Start, cdp.Empty{})
		return err
	}))
}

// StopProfile ends the profile StartProfile began and returns the
// functions the samples fell in, the most self time first.
func (p *Page) StopProfile() []ProfileEntry {
	p.t.Helper()
	var prof *profiler.Profile
	p.do("stop the profiler", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		r, err := cdp.Call(ctx, tg, profiler.Stop, cdp.Empty{})
		if err != nil {
			return err
		}
		prof = r.Profile
		return nil
	}))
	if prof == nil {
		return nil
	}
	return profileEntries(prof)
}

// profileEntries sums the samples' time per function: its own time where
// a sample's top frame is it, its total where it is anywhere on the stack
// (counted once per sample, also when it recurses).
func profileEntries(prof *profiler.Profile) []ProfileEntry {
	parent := map[int64]int64{}
	byID := map[int64]*profiler.ProfileNode{}
	for _, n := range prof.Nodes {
		byID[n.ID] = n
		for _, c := range n.Children {
			parent[c] = n.ID
		}
	}
	name := func(n *profiler.ProfileNode) string {
		f := n.CallFrame
		fn := f.FunctionName
		if fn == "" {
			fn = "(anonymous)"
		}
		if f.URL == "" {
			return fn
		}
		return fmt.Sprintf("%s %s:%d", fn, path.Base(f.URL), f.LineNumber+1)
	}
	self, total := map[string]float64{}, map[string]float64{}
	for i, id := range prof.Samples {
		if i+1 >= len(prof.TimeDeltas) {
			break
		}
		ms := float64(prof.TimeDeltas[i+1]) / 1000 // a sample lasts until the next one
		n := byID[id]
		if n == nil {
			continue
		}
		self[name(n)] += ms
		seen := map[string]bool{}
		for at, ok := id, true; ok; at, ok = parent[at] {
			if k := name(byID[at]); !seen[k] {
				seen[k] = true
				total[k] += ms
			}
		}
	}
	out := make([]ProfileEntry, 0, len(total))
	for k, t := range total {
		out = append(out, ProfileEntry{Function: k, Self: self[k], Total: t})
	}
	slices.SortFunc(out, func(a, b ProfileEntry) int {
		return cmp.Or(cmp.Compare(b.Self, a.Self), cmp.Compare(a.Function, b.Function))
	})
	return out
}
