// Package memory is an agent's local knowledge of the world: where the agent
// is, relative to where it started, and what it has seen where and when.
//
// Agents never learn absolute coordinates (unless the match sends
// absolutePosition), so everything is kept in the agent's own frame: the
// start cell is (0, 0) and the position moves with every successful move.
// The torus wraps, but its size is unknown, so the frame is an unbounded
// plane: a cell seen again after going round the world is stored twice.
// Paths are planned with A* over that plane, seen free cells being cheap and
// unknown cells passable but costlier.
package memory
