package matchtest

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/internal/loadconfig"
	"github.com/massim-go/massim/replays/codec"
	"github.com/massim-go/massim/replays/stream"
	"github.com/massim-go/massim/scenario"
	"github.com/massim-go/massim/scenario/scenariotest"
	"github.com/massim-go/massim/sim"
)

// Played is a simulation played to its end (or to the requested step).
type Played struct {
	Params    scenario.Params
	Teams     []scenario.Team
	Static    scenario.Static
	Snapshots []*scenario.Snapshot // initial (step -1) first
	Answers   [][]codec.Answer     // per snapshot, nil for the initial one
}

// Options choose what Play plays.
type Options struct {
	Steps   int    // 0: the match entry's steps
	Seed    int64  // the world's seed
	Players uint64 // seed of the players' choices
	Sloppy  bool   // agents sometimes time out, answer late or are offline
	// Movers makes every agent move in a random direction each step (the
	// load of massim bench's random agents) instead of playing.
	Movers   bool
	Observer func(snap *scenario.Snapshot, answers []codec.Answer)
	// Sinks are fed by Record's stream besides the compact file.
	Sinks []stream.Sink
	// Recycle makes Record build each snapshot into the memory of the one
	// its stream gives back (sim.SnapshotRecycler), as the server's step
	// loop does. Played.Snapshots then holds only the initial snapshot: the
	// others are overwritten.
	Recycle bool
}

// Play plays match entry index of cfg between the config's first teams.
func Play(cfg *config.Config, index int, opts Options) (*Played, error) {
	return playWith(cfg, index, opts, nil, nil)
}

// playWith is Play; begin sees the world and its initial snapshot first.
// With spare set, each snapshot is built into the memory of the one it
// returns (and not kept).
func playWith(cfg *config.Config, index int, opts Options, begin func(*scenario.World, *scenario.Snapshot), spare func() *scenario.Snapshot) (*Played, error) {
	m := cfg.Match[index]
	if opts.Steps > 0 {
		m.Steps = opts.Steps
	}
	m.RandomSeed, m.HasRandomSeed = opts.Seed, true
	params, err := sim.WorldParams(cfg, m, time.UnixMilli(0))
	if err != nil {
		return nil, fmt.Errorf("matchtest: %w", err)
	}
	n := min(max(cfg.Server.TeamsPerMatch, 1), len(cfg.Teams))
	teams := make([]scenario.Team, n)
	for i, t := range cfg.Teams[:n] {
		teams[i] = scenario.Team{Name: t.Name, Prefix: t.Prefix}
	}
	w, err := scenario.New(params, teams)
	if err != nil {
		return nil, fmt.Errorf("matchtest: %w", err)
	}
	p := &Played{Params: params, Teams: teams, Static: w.Static("sim"), Snapshots: []*scenario.Snapshot{w.Snapshot()}, Answers: [][]codec.Answer{nil}}
	if begin != nil {
		begin(w, p.Snapshots[0])
	}
	if opts.Observer != nil {
		opts.Observer(p.Snapshots[0], nil)
	}
	agents := w.Agents()
	players := make([]*scenariotest.Player, len(agents))
	initial, _ := w.InitialPercept(agents[0])
	for i, a := range agents {
		team, _ := w.TeamOf(a)
		var mates []string
		for _, o := range agents {
			if t, _ := w.TeamOf(o); t == team && o != a {
				mates = append(mates, o)
			}
		}
		players[i] = scenariotest.NewPlayer(opts.Players+uint64(i)*7919, a, mates, initial.Roles)
	}
	rng := rand.New(rand.NewPCG(opts.Players, 99))
	var late []*codec.Action // answers that will arrive late, by agent
	for !w.Done() {
		if err := w.Prepare(); err != nil {
			return nil, fmt.Errorf("matchtest: %w", err)
		}
		actions := make(map[string]scenario.Action, len(agents))
		answers := make([]codec.Answer, len(agents))
		nextLate := make([]*codec.Action, len(agents))
		for i, a := range agents {
			var name string
			var params []string
			if opts.Movers {
				name, params = "move", []string{moveDirections[rng.IntN(len(moveDirections))]}
			} else {
				pc, _ := w.Percept(a)
				name, params = players[i].Act(&pc)
			}
			if late != nil {
				answers[i].LatePrevious = late[i]
			}
			r := 100
			if opts.Sloppy {
				r = rng.IntN(100)
			}
			switch {
			case r < 3:
				answers[i].Kind = codec.AnswerOffline
			case r < 6:
				answers[i].Kind = codec.AnswerNone
			case r < 9:
				answers[i].Kind = codec.AnswerNone
				nextLate[i] = &codec.Action{Name: name, Params: params}
			default:
				answers[i].Kind = codec.AnswerInTime
				answers[i].Action = codec.Action{Name: name, Params: params}
				actions[a] = scenario.Action{Name: name, Params: params}
			}
		}
		late = nextLate
		if err := w.Execute(actions); err != nil {
			return nil, fmt.Errorf("matchtest: %w", err)
		}
		var snap *scenario.Snapshot
		if spare != nil {
			snap = w.SnapshotReusing(spare())
		} else {
			snap = w.Snapshot()
			p.Snapshots = append(p.Snapshots, snap)
		}
		p.Answers = append(p.Answers, answers)
		if opts.Observer != nil {
			opts.Observer(snap, answers)
		}
	}
	return p, nil
}

// moveDirections are the directions Movers pick from.
var moveDirections = []string{"n", "s", "e", "w"}

// Config is a contest-like config of teams × agents on a size×size grid.
func Config(teams, agents, size, steps int) (*config.Config, error) {
	names := make([]string, teams)
	for i := range names {
		names[i] = string(rune('A' + i))
	}
	cfg, err := config.Parse("matchtest.json", fmt.Appendf(nil, `{
 "server": {"teamsPerMatch": %d},
 "match": [%s],
 "teams": %s
}`, teams, loadconfig.Match(agents, size, steps), loadconfig.Teams(names)))
	if err != nil {
		return nil, fmt.Errorf("matchtest: %w", err)
	}
	return cfg, nil
}
