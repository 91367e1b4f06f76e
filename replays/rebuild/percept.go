package rebuild

import (
	"encoding/json"
	"fmt"
	"slices"
	"sync"

	"github.com/massim-go/massim/protocol"
	"github.com/massim-go/massim/scenario"
)

// Percept is what one agent received at one step and what became of its
// answer.
type Percept struct {
	Agent string `json:"agent"`
	Step  int    `json:"step"`
	// Percept is the request-action's percept exactly as the server sent
	// it (the same encoder, so the same bytes).
	Percept json.RawMessage `json:"percept"`
	// Answer says how the agent answered: "in time", "none" (no answer
	// before the deadline), "offline".
	Answer string `json:"answer"`
	// Late is its answer to the step before, come after that step's deadline.
	Late *Late `json:"late,omitempty"`
	// Action, Params and Result are what the world executed for the agent
	// and its result (no_action when it did not answer in time).
	Action string   `json:"action"`
	Params []string `json:"actionParams"`
	Result string   `json:"actionResult"`
}

// Late is an answer that came after its step's deadline.
type Late struct {
	Action string   `json:"action"`
	Params []string `json:"actionParams"`
}

// perceive plays step w.Step()+1 and returns what agent perceived at it.
func (rec *Record) perceive(w *scenario.World, agent string) (Percept, error) {
	step := w.Step() + 1
	index := slices.Index(rec.Meta.Record.Agents, agent)
	if index < 0 {
		return Percept{}, fmt.Errorf("rebuild: no agent %q in the replay (agents %s … %s)", agent,
			rec.Meta.Record.Agents[0], rec.Meta.Record.Agents[len(rec.Meta.Record.Agents)-1])
	}
	if step > rec.Last {
		return Percept{}, fmt.Errorf("rebuild: step %d is past the replay's last step %d", step, rec.Last)
	}
	if err := w.Prepare(); err != nil {
		return Percept{}, fmt.Errorf("rebuild: step %d: %w", step, err)
	}
	var p protocol.StepPercept
	w.PerceptInto(agent, &p)
	out := Percept{Agent: agent, Step: step, Percept: protocol.AppendStepPercept(nil, &p)}
	answers := rec.Answers[step]
	if err := w.Execute(Actions(rec.Meta.Record.Agents, answers)); err != nil {
		return Percept{}, fmt.Errorf("rebuild: step %d: %w", step, err)
	}
	a := answers[index]
	out.Answer = a.Kind.String()
	if l := a.LatePrevious; l != nil {
		out.Late = &Late{Action: l.Name, Params: l.Params}
	}
	e := w.Snapshot().Entities[index]
	out.Action, out.Params, out.Result = e.Action, e.ActionParams, e.ActionResult
	if out.Params == nil {
		out.Params = []string{}
	}
	return out, nil
}

// Percept rebuilds the world up to step and returns what agent perceived
// at it (steps 0 … Last; step −1 has no request-action).
func (rec *Record) Percept(agent string, step int) (Percept, error) {
	return NewCache(rec, 1).Percept(agent, step)
}

// Cache keeps a few rebuilt worlds of one record, so that asking for the
// step after one asked before costs one step, not the whole way from −1.
// It is safe for concurrent use.
type Cache struct {
	rec    *Record
	size   int
	mu     sync.Mutex
	worlds []*scenario.World // the least recently used first
}

// NewCache keeps up to size worlds of rec.
func NewCache(rec *Record, size int) *Cache { return &Cache{rec: rec, size: max(size, 1)} }

// Record is the cached record.
func (c *Cache) Record() *Record { return c.rec }

// Percept is Record.Percept from the nearest cached world before step.
func (c *Cache) Percept(agent string, step int) (Percept, error) {
	if step < 0 || step > c.rec.Last {
		return Percept{}, fmt.Errorf("rebuild: no request-action at step %d (the replay's steps are 0 … %d)", step, c.rec.Last)
	}
	w, err := c.take(step - 1)
	if err != nil {
		return Percept{}, err
	}
	if err := c.rec.Advance(w, step-1); err != nil {
		return Percept{}, err
	}
	p, err := c.rec.perceive(w, agent)
	if err == nil || w.Step() == step {
		c.give(w)
	}
	return p, err
}

// take removes from the cache the world nearest before or at step, or builds
// a new one.
func (c *Cache) take(step int) (*scenario.World, error) {
	c.mu.Lock()
	best := -1
	for i, w := range c.worlds {
		if w.Step() <= step && (best < 0 || w.Step() > c.worlds[best].Step()) {
			best = i
		}
	}
	if best >= 0 {
		w := c.worlds[best]
		c.worlds = slices.Delete(c.worlds, best, best+1)
		c.mu.Unlock()
		return w, nil
	}
	c.mu.Unlock()
	return c.rec.Start()
}

// give puts w back as the most recently used world.
func (c *Cache) give(w *scenario.World) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.worlds = append(c.worlds, w)
	if len(c.worlds) > c.size {
		c.worlds = slices.Delete(c.worlds, 0, 1)
	}
}
