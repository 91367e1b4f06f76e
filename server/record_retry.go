package server

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/massim-go/massim/sim"
)

// A write into the tournament folder that fails (a full disk, a folder
// turned read-only) does not stop the tournament: the game goes on, the
// record keeps what it could not write in memory, logs the failure at once
// with the file and the reason, and writes it again every recordRetry and
// at every later change until it succeeds, which it logs too. What is still
// unwritten when the tournament ends is an ErrUnrecorded (docs/tournaments.md,
// "Full or read-only disks").

// recordRetry is how often failed writes of the tournament folder are tried
// again.
const recordRetry = time.Second

// ErrUnrecorded marks a tournament whose folder misses files that could
// not be written (the disk stayed full or read-only until the end).
var ErrUnrecorded = errors.New("server: the tournament folder misses files that could not be written")

// pendingResult is a match result file that could not be written yet.
type pendingResult struct {
	match int
	sims  []sim.Outcome
	end   time.Time
}

// wrote notes the outcome of writing path: a first failure is logged as an
// error, a success after failures as good news. It returns nothing: the
// caller goes on either way.
func (r *record) wrote(path string, err error) {
	prev, failing := r.failing[path]
	switch {
	case err != nil && !failing:
		if r.failing == nil {
			r.failing = map[string]error{}
		}
		r.failing[path] = err
		r.log.Error().Err(err).Str("file", path).
			Msg("tournament folder: cannot write this file; the tournament goes on and the write is retried")
	case err != nil:
		r.failing[path] = err
	case failing:
		delete(r.failing, path)
		r.log.Info().Str("file", path).AnErr("after", prev).Msg("tournament folder: written again, nothing is missing from it")
	}
}

// retryFailed writes again what failed before. Only the tournament's
// retry loop and the tournament goroutine call it, under r.mu.
func (r *record) retryFailed() {
	_, manifest := r.failing[r.manifestPath()]
	_, standings := r.failing[r.standingsPath()]
	if manifest || standings {
		r.saveNow() // both: the standings derive from the manifest
	}
	if _, ok := r.failing[r.statsPath()]; ok {
		r.saveStats()
	}
	results := r.pendingResults
	r.pendingResults = nil
	for _, p := range results {
		r.writeResult(p)
	}
}

// startRetries retries failed writes every recordRetry until ctx ends.
func (r *record) startRetries(ctx context.Context) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(recordRetry)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				r.mu.Lock()
				if len(r.failing) > 0 || len(r.pendingResults) > 0 {
					r.retryFailed()
				}
				r.mu.Unlock()
			}
		}
	}()
	return func() { cancel(); <-done }
}

// unrecorded tries the failed writes a last time and returns an
// ErrUnrecorded naming what is still missing, or nil.
func (r *record) unrecorded() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.retryFailed()
	var missing []string
	for path, err := range r.failing {
		missing = append(missing, fmt.Sprintf("%s (%v)", filepath.Base(path), errors.Unwrap(err)))
	}
	slices.Sort(missing)
	for _, p := range r.pendingResults {
		missing = append(missing, fmt.Sprintf("the result file of match %d (%d simulations)", p.match, len(p.sims)))
	}
	if len(missing) == 0 {
		return nil
	}
	return fmt.Errorf("%w: %s in %s; they are recorded nowhere else, so free space and run the same command with -resume "+
		"(simulations missing from manifest.json are played again)", ErrUnrecorded, strings.Join(missing, "; "), r.dir)
}
