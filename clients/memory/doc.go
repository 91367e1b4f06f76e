// Package memory is what an agent knows of the world: where it is,
// relative to where it started, and what it has seen where and when.
//
// Agents never learn absolute coordinates (unless the match sends
// absolutePosition), so everything is kept in a frame: an agent's own
// frame has its start cell at (0, 0) and its position moves with every
// successful move (Memory). A Map holds the cells seen in one frame; maps
// of agents whose frames are linked merge into one (Absorb). The torus
// wraps, but its size is unknown at first, so a frame is an unbounded
// plane until the size is learned (SetSize), after which positions wrap.
// Routes are planned with A* over position and orientation of the
// agent's structure (Map.Route): seen free cells are cheap, never-seen
// cells cost what digging would, obstacles within the agent's clear reach
// are dug through at the cost of clearing them.
package memory
