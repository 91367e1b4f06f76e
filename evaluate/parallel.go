package evaluate

import (
	"context"
	"slices"
	"sync"

	"github.com/rs/zerolog"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/scenario/normaudit"
)

// Played is one game of PlayAll: the game, and its result and audit
// episodes, or why it could not be played.
type Played struct {
	Game     Game
	Result   Result
	Episodes []normaudit.Episode
	Err      error
}

// PlayAll plays games, parallel at a time (each on its own in-process
// server and port), and returns them in the order given. done, when not
// nil, is called as each game ends, one call at a time. After the first
// error the games still running are stopped and no new one is started;
// failed is the index of the game that failed first (-1: none did), the
// others' errors may only say that they were stopped.
func PlayAll(ctx context.Context, base *config.Config, games []Game, parallel int, newTeam NewTeam, log zerolog.Logger,
	done func(Played)) (played []Played, failed int) {
	out := make([]Played, len(games))
	failed = -1
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	slots := make(chan struct{}, max(parallel, 1))
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i, g := range games {
		out[i] = Played{Game: g, Err: context.Canceled}
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Go(func() {
			defer func() { <-slots }()
			res, episodes, err := Play(ctx, base, g, newTeam, log)
			mu.Lock()
			defer mu.Unlock()
			out[i] = Played{Game: g, Result: res, Episodes: episodes, Err: err}
			if err != nil && failed < 0 {
				failed = i
				cancel()
			}
			if done != nil {
				done(out[i])
			}
		})
	}
	wg.Wait()
	if failed < 0 && ctx.Err() != nil && len(games) > 0 {
		failed = slices.IndexFunc(out, func(p Played) bool { return p.Err != nil })
	}
	return out, failed
}
