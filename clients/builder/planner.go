package builder

import (
	"fmt"
	"slices"

	"github.com/rs/zerolog"

	"github.com/massim-go/massim/clients/game"
)

// The planner decides, once per step and for the whole team, who does
// what: for the active tasks it opens projects (a task built at one goal
// spot: a submitter holding the anchor block and one helper per other
// block), and gives the members not in a project a job: fetching a block
// the tasks may want and waiting with it near a goal zone (stock), or
// exploring. It runs inside the squad's lock, in the goroutine of the
// first agent to report in a step, from what the members reported so far.

// jobKind is what the planner asks a member to do.
type jobKind uint8

const (
	jobExplore jobKind = iota // find goal zones, dispensers, role zones
	jobStock                  // fetch a block of a type and wait near a goal zone
	jobHelp                   // bring a block to a project and connect it
	jobSubmit                 // hold the anchor at the spot, connect the helpers' blocks, submit
)

func (k jobKind) String() string {
	return [...]string{"explore", "stock", "help", "submit"}[k]
}

// job is a member's assignment.
type job struct {
	kind    jobKind
	block   string // the block type to fetch or hold
	project *project
	slot    int // helper: the index of its requirement
	since   int
}

// project is one task being built at a goal spot, in its group's frame.
type project struct {
	id        int
	group     *group
	task      game.Task
	spot      game.Pos // where the submitter stands
	submitter *member
	slots     []slot // one per requirement; slots[0] is the anchor (0,1)
	order     []int  // the order of connection: every slot after its parent
	created   int
	progress  int  // the last step something advanced
	placed    bool // the submitter stands on the spot with the anchor in place
	done      bool // submitted or given up
	contested int  // steps in a row others held cells it needs (see contested)
}

// slot is one requirement of a project.
type slot struct {
	req      game.Requirement
	parent   int // the slot whose block it connects to; -1 for the anchor
	helper   *member
	attached bool
	stand    game.Pos // where the helper stands to connect (group frame)
	hasStand bool
	ready    int // the last step the helper stood ready
}

// cell is the slot's cell in the group frame.
func (p *project) cell(i int) game.Pos { return p.group.world.Norm(p.spot.Add(p.slots[i].req.Pos)) }

// cells lists the cells the finished structure covers, the spot included.
func (p *project) cells() []game.Pos {
	out := []game.Pos{p.spot}
	for i := range p.slots {
		out = append(out, p.cell(i))
	}
	return out
}

type planner struct {
	step     int // the last step planned (-1: none yet)
	planned  bool
	projects []*project
	nextID   int
	bad      map[string]int // tasks not to start again until the step
	// stats counts what happened to projects, by event and task size,
	// for diagnostics.
	sites   map[int]digCache // per group: where diggers clear rock
	stats   map[string]int
	whyStep string
	static  game.Static // the simulation's roles, from the agents' sim-start
	// avoided lists, per group, cells of contested projects with the step
	// until which new spots keep off them.
	avoided map[int]map[game.Pos]int
	log     zerolog.Logger
}

// why counts, once per step and task size, why no project was opened.
func (pl *planner) why(reason string, size int) {
	key := fmt.Sprintf("%d:%d", pl.step, size)
	if pl.whyStep == key {
		return
	}
	pl.whyStep = key
	pl.count("not opened: "+reason, size)
}

func (pl *planner) count(event string, size int) {
	if pl.stats == nil {
		pl.stats = map[string]int{}
	}
	pl.stats[fmt.Sprintf("%s (%d)", event, size)]++
}

// Planning parameters.
const (
	projectPatience = 50 // steps a project may go without progress
	perTaskProjects = 3  // projects at most per task and group (one-block tasks: more)
	stockPerType    = 3  // members waiting with blocks of one type, per group
	// costPerCell estimates the steps per cell of a trip through a cave
	// (detours and digging), to judge whether a deadline can be met.
	costPerCell = 1.0
)

// update plans the step if nobody did yet; b is the reporting agent, whose
// percept gives the tasks and norms (all agents see the same).
func (pl *planner) update(s *squad, b *brain) {
	if pl.planned && b.p.Step <= pl.step {
		return
	}
	pl.planned, pl.step = true, b.p.Step
	pl.log = s.log
	pl.static = b.static
	pl.roles(s, b.p.Norms)
	pl.review(s, b.p.Tasks)
	pl.refill(s)
	pl.open(s, b.p.Tasks)
	pl.assign(s, b.p.Tasks)
}

// release ends a member's part in plans (it left, or its job ended).
func (pl *planner) release(m *member) {
	if m.job == nil {
		return
	}
	if p := m.job.project; p != nil {
		switch m.job.kind {
		case jobSubmit:
			pl.abandon(p)
		case jobHelp:
			if sl := &p.slots[m.job.slot]; sl.helper == m {
				sl.helper, sl.hasStand = nil, false
			}
		}
	}
	m.job = nil
}

// abandon gives a project up: its members keep what they hold and get new
// jobs.
func (pl *planner) abandon(p *project) {
	if p.done {
		return
	}
	p.done = true
	if m := p.submitter; m != nil && m.job != nil && m.job.project == p {
		m.job = nil
		// A structure beyond the anchor fits no other task: it lets go of
		// it all (the anchor alone it keeps, for the next project).
		for k := 1; k < len(p.slots); k++ {
			m.dropAll = m.dropAll || p.slots[k].attached
		}
	}
	for i := range p.slots {
		if m := p.slots[i].helper; m != nil && m.job != nil && m.job.project == p {
			m.job = nil
		}
	}
}

// review drops projects whose task is gone or late, whose submitter is out,
// or that made no progress for too long.
func (pl *planner) review(s *squad, tasks []game.Task) {
	for _, p := range pl.projects {
		if p.done {
			continue
		}
		t, ok := findTask(tasks, p.task.Name)
		sub := p.submitter
		switch {
		case !ok || t.Deadline < pl.step:
			pl.count("abandoned: task gone", len(p.slots))
		case sub == nil || sub.group != p.group || sub.job == nil || sub.job.project != p || sub.deactivated:
			pl.count("abandoned: submitter out", len(p.slots))
		case pl.step-p.progress > projectPatience:
			pl.count("abandoned: no progress", len(p.slots))
			pl.markBad(p.task.Name, 20)
		case pl.contested(s, p):
			pl.count("abandoned: contested", len(p.slots))
			pl.avoid(p)
		default:
			for i := range p.slots {
				if h := p.slots[i].helper; h != nil && (h.group != p.group || h.deactivated || h.job == nil || h.job.project != p) {
					p.slots[i].helper, p.slots[i].hasStand = nil, false
				}
			}
			continue
		}
		pl.log.Debug().Int("step", pl.step).Int("project", p.id).Bool("placed", p.placed).Int("progress", p.progress).Msg("project abandoned")
		pl.abandon(p)
	}
	pl.projects = slices.DeleteFunc(pl.projects, func(p *project) bool { return p.done })
	for _, name := range s.names() {
		m := s.members[name]
		if m.job != nil && m.deactivated {
			pl.release(m)
		}
	}
}

func findTask(tasks []game.Task, name string) (game.Task, bool) {
	for _, t := range tasks {
		if t.Name == name {
			return t, true
		}
	}
	return game.Task{}, false
}

func (pl *planner) markBad(task string, steps int) {
	if pl.bad == nil {
		pl.bad = map[string]int{}
	}
	pl.bad[task] = pl.step + steps
}

// capable reports whether a member can work on blocks (its role can
// request, attach, connect and submit).
func (m *member) capable() bool {
	return m.brain != nil && !m.deactivated && !m.digger && (m.role == roleWorker || m.role == roleConstructor)
}

// free reports whether a member may take a project job.
func (m *member) free() bool {
	return m.capable() && (m.job == nil || m.job.kind == jobExplore || m.job.kind == jobStock)
}

// holds reports whether the member holds a block of the type next to it.
func (m *member) holds(typ string) bool {
	return slices.ContainsFunc(m.held, func(t game.Thing) bool { return t.Details == typ })
}
