package scenario

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/massim-go/massim/protocol"
)

// World is one running simulation.
type World struct {
	p      Params
	g      grid
	rng    *RNG
	teams  []Team
	roles  []Role
	things *things

	entities []*entity // creation order
	byName   map[string]*entity

	blockTypes []string // sorted as strings
	goalZones  []zone   // creation order
	roleZones  []zone
	goalCover  []int32 // per cell: number of goal zones covering it
	roleCover  []int32
	carved     []Pos // obstacles removed by grid.connected (reachability.go)
	// setupWarnings are the setup lines that were skipped (setup.go).
	setupWarnings []SetupWarning

	step   int
	phase  phase
	scores []int64 // per team, match order

	tasks       []*task // creation order
	taskByName  map[string]*task
	norms       []*norm // creation order
	normsMade   int
	violations  []violation   // records of this step's regulation
	clears      []*clearEvent // pending, creation order
	markers     []uint8       // per cell: marker bits of this step
	markedCells []int32       // cells with markers, to clear them cheaply
	logEvents   []LogEvent    // "task completed" events of this step

	// scratch holds the storage of the structures being evaluated (see
	// structureOf and secondStructure).
	scratch [2][]*thing

	// attachedCache caches, per thing id, whether its structure holds
	// another entity; valid between Prepare and Execute (the percept phase).
	attachedCache []bool
	// attachedObstacles is set when attachedCache marks some obstacle, so
	// percepts must look up the obstacles in view (see perceiveCell).
	attachedObstacles bool
	stepTasks         []protocol.Task // percept form, shared by all agents of the step
	stepNorms         []protocol.Norm

	snap snapshotCache // see Snapshot
}

// phase is where the world is within its step.
type phase uint8

const (
	phaseExecuted phase = iota // set-up done, or the current step's actions executed
	phasePrepared              // preparation done, waiting for actions
)

// New builds the world of a simulation in the order of docs/rules.md, "Setting up a simulation".
// After New the world is at step -1 (before the first preparation).
func New(p Params, teams []Team) (*World, error) {
	w, err := build(p, teams)
	if err != nil {
		return nil, fmt.Errorf("scenario: %w", err)
	}
	return w, nil
}

// build is New with errors not yet naming the package.
func build(p Params, teams []Team) (*World, error) {
	if err := checkParams(p, teams); err != nil {
		return nil, err
	}
	g := grid{p.Grid.Width, p.Grid.Height}
	w := &World{
		p:          p,
		g:          g,
		rng:        NewRNG(p.Seed),
		teams:      teams,
		roles:      p.Roles,
		things:     newThings(g),
		byName:     make(map[string]*entity),
		goalCover:  make([]int32, g.w*g.h),
		roleCover:  make([]int32, g.w*g.h),
		step:       -1,
		scores:     make([]int64, len(teams)),
		markers:    make([]uint8, g.w*g.h),
		taskByName: make(map[string]*task),
	}
	if err := w.buildTerrain(); err != nil {
		return nil, err
	}
	if err := w.placeZones(); err != nil {
		return nil, err
	}
	n := w.rng.Between(p.BlockTypes)
	for i := range n {
		w.blockTypes = append(w.blockTypes, "b"+strconv.Itoa(i))
	}
	slices.Sort(w.blockTypes)
	if err := w.placeAgents(); err != nil {
		return nil, err
	}
	if err := w.placeDispensers(); err != nil {
		return nil, err
	}
	if p.Grid.Connected {
		w.carveConnections()
	}
	w.runSetup(p.Setup)
	return w, nil
}

func checkParams(p Params, teams []Team) error {
	var errs []error
	if p.Grid.Width < 1 || p.Grid.Height < 1 {
		errs = append(errs, fmt.Errorf("grid %dx%d: must be at least 1x1", p.Grid.Width, p.Grid.Height))
	}
	if p.Steps < 1 {
		errs = append(errs, fmt.Errorf("steps %d: must be >= 1", p.Steps))
	}
	if len(p.Roles) == 0 {
		errs = append(errs, errors.New("roles: need at least the default role"))
	}
	for _, r := range p.Roles {
		if len(r.Speed) == 0 {
			errs = append(errs, fmt.Errorf("role %s: speed must not be empty", r.Name))
		}
	}
	if len(p.ClearDamage) == 0 {
		errs = append(errs, errors.New("clearDamage must not be empty"))
	}
	if len(teams) == 0 {
		errs = append(errs, errors.New("no teams"))
	}
	named := map[string]Bounds{
		"clusterBounds": p.ClusterBounds, "blockTypes": p.BlockTypes, "dispensers": p.Dispensers,
		"grid.goals.size": p.Grid.Goals.Size, "grid.roleZones.size": p.Grid.RoleZones.Size,
		"tasks.size": p.Tasks.Size, "tasks.iterations": p.Tasks.Iterations, "tasks.maxDuration": p.Tasks.MaxDuration,
		"events.radius": p.Events.Radius, "events.create": p.Events.Create,
	}
	for i, s := range p.Regulation.Subjects {
		switch s.Name {
		case SubjectCarry, SubjectAdopt, SubjectRoleIndividual:
		default:
			errs = append(errs, fmt.Errorf("regulation subject %d: unknown name %q", i, s.Name))
		}
		prefix := fmt.Sprintf("regulation subject %d ", i)
		named[prefix+"announcement"] = s.Announcement
		named[prefix+"duration"] = s.Duration
		named[prefix+"punishment"] = s.Punishment
	}
	for _, key := range slices.Sorted(maps.Keys(named)) {
		if b := named[key]; b.Min > b.Max {
			errs = append(errs, fmt.Errorf("%s [%d,%d]: min > max", key, b.Min, b.Max))
		}
	}
	if p.ClusterBounds.Min < 1 {
		errs = append(errs, fmt.Errorf("clusterBounds [%d,%d]: min must be >= 1", p.ClusterBounds.Min, p.ClusterBounds.Max))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("parameters: %w", err)
	}
	return nil
}

// Step is the current step: -1 after set-up, then 0 … Steps-1.
func (w *World) Step() int { return w.step }

// Done reports whether the last step has been executed.
func (w *World) Done() bool { return w.step >= w.p.Steps-1 && w.phase == phaseExecuted }

// Agents lists the account names of all entities in creation order.
func (w *World) Agents() []string {
	names := make([]string, len(w.entities))
	for i, e := range w.entities {
		names[i] = e.name
	}
	return names
}

// BlockTypes lists the block types, sorted as strings.
func (w *World) BlockTypes() []string { return w.blockTypes }

// TeamScore is a team's score.
type TeamScore struct {
	Team  string
	Score int64
}

// ScoresInOrder lists the scores of teams in that order (0 for a team
// without an entry): score tables and replay indexes hold them by position.
func ScoresInOrder(teams []string, scores []TeamScore) []int64 {
	out := make([]int64, len(teams))
	for i, t := range teams {
		for _, s := range scores {
			if s.Team == t {
				out[i] = s.Score
			}
		}
	}
	return out
}

// Scores lists every team's score in match order.
func (w *World) Scores() []TeamScore { return w.appendScores(make([]TeamScore, 0, len(w.teams))) }

func (w *World) appendScores(out []TeamScore) []TeamScore {
	for i, t := range w.teams {
		out = append(out, TeamScore{Team: t.Name, Score: w.scores[i]})
	}
	return out
}

// Ranking gives each team's 1-based rank by score, highest first; equal
// scores share the better rank (docs/protocol.md, "sim-end"). Indexed like Teams.
func (w *World) Ranking() []int {
	ranks := make([]int, len(w.teams))
	for i := range w.teams {
		ranks[i] = 1
		for j := range w.teams {
			if w.scores[j] > w.scores[i] {
				ranks[i]++
			}
		}
	}
	return ranks
}

// TeamOf gives the team name of an agent.
func (w *World) TeamOf(agent string) (string, bool) {
	e, ok := w.byName[agent]
	if !ok {
		return "", false
	}
	return w.teams[e.team].Name, true
}
