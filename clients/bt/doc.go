// Package bt is a behaviour-tree library for agents that must choose exactly
// one action per simulation step.
//
// A Tree is built once (from Go constructors or from a behaviour file, see
// package btfile) and shared by any number of agents; each agent ticks it
// through its own Instance, which holds the node memory (which child of a
// sequence is running, repeat counters, cooldowns, ...), the agent's
// Blackboard and a link to the TeamBoard shared by the agents of a team.
//
// Ticking (docs/behaviour-files.md, "Behaviour trees"): Instance.Tick runs the tree once per step.
// Nodes return Success, Failure or Running. Leaves that act call
// Context.Act; the first action of a tick is the step's action, and an
// acting leaf always reports Running, its verdict following in the next
// tick once the action's result is known. Composites therefore stop at the
// acting leaf, and a multi-step skill keeps running across steps. When the
// root completes without acting it is ticked again (a few times at most),
// so that finishing one branch does not waste a step; if no action comes,
// the step's action is skip.
//
// Composites: Sequence (with memory: resumes at the running child),
// ReactiveSequence, Selector (re-evaluates from the first child each tick),
// Fallback (selector with memory), Parallel (success/failure thresholds),
// Choose, ChooseEach, WeightedChoice. Decorators: Invert, Always, Never,
// Repeat, UntilSuccess, Cooldown, Randomly, Guard (condition with a child).
// Leaves: Condition (an Expr) and Action (a registered Skill).
package bt
