// Package builder is the sample team that scores: its agents are driven by
// behaviour trees loaded from behaviour files (the shipped ones are
// embedded; see behaviours/), with skills and functions written in Go.
//
// The agents of a team share a squad (squad.go): agents whose frames are
// linked (they have seen each other) form a group with one map fed by all
// of them; a planner (planner.go) runs once per step and gives every
// member a job: build a task as a project (a submitter holding the anchor
// block at a goal spot, helpers connecting the other blocks one by one,
// assembly.go), fetch a block and wait near a goal zone with it, or
// explore. Routes are planned on the group's map (memory.Map.Route),
// digging through obstacles where that is cheaper. Agents step out of
// cells marked for a clear event, keep within Carry norms (dropping what
// is over the limit and waiting next to it) and Adopt norms (norms.go:
// enough members change between worker and constructor in time). A
// digger behaviour (digging.go, behaviours/digger.bt) is shipped for
// team files that want one; the default team does not use it.
package builder
