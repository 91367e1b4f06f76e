// Package normaudit sorts the norm violations of a played simulation into
// those a team could have avoided and those it could not, from the world's
// snapshots (docs/replays.md, "Snapshots"; the norms in docs/rules.md,
// "Norms").
//
// "Could not" is decided from the ground truth, as a lower bound on what
// any team could have done, so the unavoidable share is never overstated:
//
//   - Adopt (a team-level limit q on the agents holding a role R): an
//     agent that held R when the norm was created needs at least
//     "leave" actions to give R up: the cheapest way to any role-zone cell
//     at its role's fastest speed (an obstacle or loose block on the way
//     costs one clear action on top of the move) plus one adopt. It is
//     stuck at step t when leave exceeds the actions it had since the
//     creation, t − created, less the steps it was deactivated. If more
//     than q of a team's violators are stuck at t, those stuck are
//     unavoidable violations and the rest avoidable (they could have left);
//     otherwise the team could have kept to the limit and every violator is
//     avoidable. An agent that took R up after the creation is never stuck.
//   - Carry: dropping the surplus takes one detach, so a Carry violation is
//     avoidable unless the agent was deactivated for every step since the
//     norm's creation.
//
// Avoidable Adopt violations of agents that had never had a role-zone cell
// in view themselves are also counted as "unaware": the map of the world
// says they could have made it, but they could have known where to go only
// from a teammate's map.
//
// What the team could know: the same judgement with the role-zone cells
// any agent of the team had had in view (by the snapshots) instead of
// every zone, each agent going from where it stood when its team saw them
// (as if the team shared every map at once). Avoidable violations that
// fail it are "beyond team" (of those "no team zone" while no agent of the
// team had had a zone cell in view yet): the rest are what the team could
// have avoided with its own knowledge.
//
// What an agent could know: the team's maps are of use to an agent only
// once its frame is linked to theirs, and agents see only relative
// positions, so frames link when agents meet (each within the other's
// vision; meetings chain). The same judgement with the role-zone cells
// seen by the violator's linked agents gives "beyond linked" (which
// includes "beyond team"): avoidable − beyond linked is what the team could
// have avoided sharing its maps at every meeting.
//
// What an agent could plan: "beyond linked" still costs the way on the true
// terrain of a torus of known size. "Beyond seen" (which includes it)
// plans it on the map the violator's linked agents could have drawn in
// their shared frame (frames: agents know only their own moves; meetings
// tie their frames together): each cell as it was when one of them last
// had it in view, a cell none of them had seen costed as rock (one clear
// action and the move, the most a cell can cost, so the plan could have
// been kept whatever the unseen cells held), on a plane that wraps round
// an axis only once a meeting showed the grid's size on it. Each of the
// agent's actions that failed at random after the plan adds a step, and
// an agent seen out of the role has shown it could leave by then.
// Avoidable − beyond seen is what the team could have avoided with a plan
// made from what it had seen.
//
// No judgement counts other agents: plans walk as if the agent had the
// grid to itself, so time lost to a teammate or an opponent in the way (a
// failed move, a detour, a crowd at a role zone) counts as avoidable.
//
// Episodes (one per agent and norm) record where the agent was, what it
// needed and what it did while it violated, for finding causes.
package normaudit
