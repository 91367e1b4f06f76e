package builder

import (
	"embed"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"sync"

	"github.com/rs/zerolog"

	"github.com/massim-go/massim/clients/agent"
	"github.com/massim-go/massim/clients/bt"
	"github.com/massim-go/massim/clients/btfile"
)

// Shipped is the embedded folder of shipped behaviour files; DefaultFile
// is the team file loaded when no other is given.
//
//go:embed behaviours/*.bt
var Shipped embed.FS

// DefaultFile is the shipped team file inside Shipped.
const DefaultFile = "behaviours/builder.bt"

// Config describes a builder team.
type Config struct {
	// File is a behaviour file on disk to use instead of the shipped one.
	File string
	// Count is the number of agents that will connect; the team file's
	// assignment is checked against it when the team is made.
	Count  int
	Seed   int64          // seed of the agents' random choices
	Logger zerolog.Logger // the zero value logs nothing
	// Trace names agents (account names, e.g. agentA3) whose running node
	// path and action are written to TraceOut every step.
	Trace    []string
	TraceOut io.Writer
}

// Team is a builder team: the loaded behaviour program, the trees built
// from it, and the board its agents share.
type Team struct {
	prog  *btfile.Program
	seed  int64
	log   zerolog.Logger
	board *bt.TeamBoard
	squad *squad

	mu    sync.Mutex
	trees map[string]*bt.Tree

	trace   map[string]bool
	traceMu sync.Mutex
	traceTo io.Writer
}

// New loads the behaviour program (the shipped one unless cfg.File is set)
// and checks that it can give every one of cfg.Count agents a behaviour.
func New(cfg Config) (*Team, error) {
	reg := Registry()
	var (
		prog *btfile.Program
		err  error
	)
	if cfg.File != "" {
		prog, err = btfile.LoadFile(cfg.File, reg)
	} else {
		prog, err = btfile.Load(Shipped, DefaultFile, reg)
	}
	if err != nil {
		return nil, fmt.Errorf("builder: %w", err)
	}
	if cfg.Count > 0 {
		if _, err := prog.Assign(cfg.Count); err != nil {
			return nil, fmt.Errorf("builder: %w", err)
		}
	}
	t := &Team{
		prog: prog, seed: cfg.Seed, log: cfg.Logger,
		board: bt.NewTeamBoard(), squad: newSquad(cfg.Logger), trees: map[string]*bt.Tree{},
		trace: map[string]bool{}, traceTo: cfg.TraceOut,
	}
	for _, name := range cfg.Trace {
		t.trace[name] = true
	}
	return t, nil
}

// traceStep writes one traced agent's step: its action and the running
// node path that chose it.
func (t *Team) traceStep(user string, step int, action string, path []string) {
	if !t.trace[user] || t.traceTo == nil {
		return
	}
	t.traceMu.Lock()
	defer t.traceMu.Unlock()
	fmt.Fprintf(t.traceTo, "%s step %d: %s <- %s\n", user, step, action, strings.Join(path, " > "))
}

// Behaviour makes the behaviour of the agent with the 1-based index; it
// has team.NewBehaviour's shape.
func (t *Team) Behaviour(index int, user string) agent.Behaviour {
	return newBrain(t, index, user)
}

// Assignment describes which behaviour each of n agents gets.
func (t *Team) Assignment(n int) (string, error) {
	names, err := t.prog.Assign(n)
	if err != nil {
		return "", err
	}
	return btfile.Summary(names), nil
}

// behaviourOf is the behaviour of agent index in a simulation with
// teamSize agents per team. An index beyond the team size does not take
// part; it gets the first behaviour so that it is never without one.
func (t *Team) behaviourOf(index, teamSize int) string {
	names, err := t.prog.Assign(max(teamSize, index))
	if err != nil || index < 1 || index > len(names) {
		t.log.Error().Err(err).Int("index", index).Int("teamSize", teamSize).Msg("no behaviour for agent; using the first one")
		return t.prog.Behaviours()[0]
	}
	return names[index-1]
}

// instance gives an agent its own instance of a behaviour's tree; the tree
// itself is built once and shared.
func (t *Team) instance(behaviour string, rng *rand.Rand, log zerolog.Logger) *bt.Instance {
	t.mu.Lock()
	defer t.mu.Unlock()
	tree, ok := t.trees[behaviour]
	if !ok {
		var err error
		tree, err = t.prog.Tree(behaviour)
		if err != nil { // the program was checked at load time
			panic(fmt.Sprintf("builder: behaviour %s no longer compiles: %v", behaviour, err))
		}
		t.trees[behaviour] = tree
	}
	return tree.Instance(bt.Options{Team: t.board, Rand: rng, Logger: log})
}
