package bt

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/rs/zerolog"

	"github.com/massim-go/massim/clients/game"
)

// Status is the outcome of ticking a node.
type Status uint8

// Node statuses.
const (
	Success Status = iota + 1
	Failure
	Running
)

func (s Status) String() string {
	switch s {
	case Success:
		return "success"
	case Failure:
		return "failure"
	case Running:
		return "running"
	}
	return "invalid"
}

// Node is a node of a behaviour tree. Nodes are made by this package's
// constructors and become usable once a Tree is built from their root.
type Node interface {
	tick(c *Context) Status
	base() *nodeBase
}

// nodeBase is what every node has: its slot in the agent's memory and its
// children.
type nodeBase struct {
	id    int
	tree  *Tree
	kind  string
	label string
	name  string // the behaviour this node is the root of, if any
	kids  []Node
}

func (n *nodeBase) base() *nodeBase { return n }

// Label returns the node's description, e.g. "sequence at worker.bt:3:5".
func Label(n Node) string {
	b := n.base()
	if b.label != "" {
		return b.kind + " at " + b.label
	}
	return b.kind
}

// WithLabel sets the position shown in logs for n (behaviour files set
// file:line:column) and returns n.
func WithLabel[N Node](n N, label string) N {
	n.base().label = label
	return n
}

// WithName marks n as the root of the named behaviour (shown in running
// paths) and returns n. A node that already has a name keeps it.
func WithName[N Node](n N, behaviour string) N {
	if b := n.base(); b.name == "" {
		b.name = behaviour
	}
	return n
}

// Tree is a behaviour tree ready to be ticked by agents.
type Tree struct {
	name  string
	root  Node
	nodes []Node // by id
}

// NewTree numbers the nodes under root. A node reachable along several
// paths (a shared sub-behaviour) keeps one memory slot; a node that already
// belongs to another tree is an error.
func NewTree(name string, root Node) (*Tree, error) {
	if root == nil {
		return nil, errors.New("bt: tree " + name + " has no root")
	}
	t := &Tree{name: name, root: root}
	var walk func(n Node) error
	walk = func(n Node) error {
		b := n.base()
		switch b.tree {
		case t:
			return nil
		case nil:
		default:
			return fmt.Errorf("bt: tree %s: %s already belongs to tree %s", name, Label(n), b.tree.name)
		}
		b.tree, b.id = t, len(t.nodes)
		t.nodes = append(t.nodes, n)
		for _, k := range b.kids {
			if err := walk(k); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(root); err != nil {
		return nil, err
	}
	return t, nil
}

// Name is the tree's name.
func (t *Tree) Name() string { return t.name }

// Size is the number of distinct nodes.
func (t *Tree) Size() int { return len(t.nodes) }

// DefaultRootTicks bounds how often one step ticks a root that completes
// without acting.
const DefaultRootTicks = 3

// Options configure an Instance.
type Options struct {
	Team   *TeamBoard     // shared by the team's agents; nil: a private one
	Rand   *rand.Rand     // the agent's randomness; nil: a fixed-seed source
	Logger zerolog.Logger // the zero value logs nothing
	// RootTicks is how often one step may tick the root while it completes
	// without acting (default DefaultRootTicks; 1 disables re-ticking).
	RootTicks int
}

// Instance is one agent's use of a tree: node memory and blackboard.
// It is used by one goroutine at a time.
type Instance struct {
	tree      *Tree
	slots     []slot
	bb        *Blackboard
	team      *TeamBoard
	rng       *rand.Rand
	log       zerolog.Logger
	rootTicks int
}

// Instance creates an agent's instance of the tree.
func (t *Tree) Instance(opt Options) *Instance {
	if opt.Team == nil {
		opt.Team = NewTeamBoard()
	}
	if opt.Rand == nil {
		opt.Rand = rand.New(rand.NewPCG(1, 2))
	}
	if opt.RootTicks <= 0 {
		opt.RootTicks = DefaultRootTicks
	}
	return &Instance{tree: t, slots: make([]slot, len(t.nodes)), bb: NewBlackboard(), team: opt.Team,
		rng: opt.Rand, log: opt.Logger, rootTicks: opt.RootTicks}
}

// Blackboard is the agent's own blackboard.
func (in *Instance) Blackboard() *Blackboard { return in.bb }

// Reset forgets all node memory and clears the agent's blackboard (a new
// simulation). The team board is left alone: it belongs to the team.
func (in *Instance) Reset() {
	clear(in.slots)
	in.bb.Clear()
}

// Tick runs the tree for one step and returns the step's action (skip if
// the tree chose none) and the root's status. host is handed to skills and
// functions through Context.Host.
func (in *Instance) Tick(step int, host any) (game.Action, Status) {
	c := &Context{Step: step, Host: host, in: in}
	var st Status
	for range in.rootTicks {
		st = c.tickNode(in.tree.root)
		if c.action != nil || st == Running {
			break
		}
	}
	if c.action == nil {
		return game.Skip(), st
	}
	return *c.action, st
}

// RunningPath describes the nodes running after the last tick, from the
// root down to the deepest (the skill that acted, when one did): one entry
// per node, its kind and arguments, prefixed with "NAME: " at the root of
// a named behaviour. At a node with several running children (parallel)
// it follows the first. It is empty when the root did not keep running.
func (in *Instance) RunningPath() []string {
	var out []string
	n := in.tree.root
	for n != nil && in.slots[n.base().id].running {
		b := n.base()
		entry := b.kind
		if b.name != "" {
			entry = b.name + ": " + entry
		}
		out = append(out, entry)
		var next Node
		for _, k := range b.kids {
			if in.slots[k.base().id].running {
				next = k
				break
			}
		}
		n = next
	}
	return out
}

// Context is what nodes, skills and functions see during a tick.
type Context struct {
	Step   int // the simulation step being decided
	Host   any // the agent's game state, as passed to Instance.Tick
	in     *Instance
	action *game.Action
}

// Act chooses the step's action. Only the first action of a tick counts;
// Act reports whether this one was taken.
func (c *Context) Act(a game.Action) bool {
	if c.action != nil {
		return false
	}
	c.action = &a
	return true
}

// Acted reports whether the tick has chosen its action.
func (c *Context) Acted() bool { return c.action != nil }

// Blackboard is the agent's blackboard.
func (c *Context) Blackboard() *Blackboard { return c.in.bb }

// Team is the team's shared board.
func (c *Context) Team() *TeamBoard { return c.in.team }

// Rand is the agent's source of randomness.
func (c *Context) Rand() *rand.Rand { return c.in.rng }

// Log is the agent's logger.
func (c *Context) Log() *zerolog.Logger { return &c.in.log }

func (c *Context) slot(n Node) *slot { return &c.in.slots[n.base().id] }

// tickNode ticks n. A node that completes forgets its transient memory, so
// that its next tick starts afresh.
func (c *Context) tickNode(n Node) Status {
	st := n.tick(c)
	s := c.slot(n)
	if st == Running {
		s.running = true
	} else {
		s.reset()
	}
	return st
}

// halt forgets what n and its descendants were doing (a running branch
// interrupted by a higher-priority one). Long-term memory (cooldowns,
// choose-each pools) survives.
func (c *Context) halt(n Node) {
	s := c.slot(n)
	if !s.running && s.call == nil && s.done == nil {
		return
	}
	s.reset()
	for _, k := range n.base().kids {
		c.halt(k)
	}
}

// slot is one node's memory for one agent.
type slot struct {
	running bool
	child   int      // sequence/fallback: resume point; choose/randomly: the chosen child
	count   int      // repeat successes, until-success failures
	done    []Status // parallel: results of finished children
	call    *Call    // action leaf: the skill call in progress
	since   int      // timeout: the step the child started
	// limitValue is a decorator's count as read when it started.
	limitValue int
	hasLimit   bool

	// Long-term memory, kept when the node is halted or completes.
	until int   // cooldown: fail without ticking while step < until
	pool  []int // choose-each: children not picked yet
	init  bool  // choose-each: the pool was filled once
}

func (s *slot) reset() {
	s.running, s.child, s.count, s.done, s.call = false, 0, 0, nil, nil
	s.since, s.limitValue, s.hasLimit = 0, 0, false
}
