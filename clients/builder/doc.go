// Package builder is the sample team that scores: its agents are driven by
// behaviour trees loaded from behaviour files (the shipped ones are
// embedded; see behaviours/), with skills and functions written in Go.
//
// An agent explores, remembers dispensers, goal zones and role zones,
// adopts the worker role in a role zone, requests and attaches a block that
// an active task needs, carries it to a goal zone, rotates it into place
// and submits. Two agents whose frames are linked (they have seen each
// other) connect their blocks for two-block tasks. Agents step out of cells
// marked for a clear event and keep within active Carry norms.
package builder
