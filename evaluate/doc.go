// Package evaluate measures our sample teams: it plays seeds of a config's
// simulations, the builder team against an opponent, each game on a fresh
// in-process server over loopback TCP, and gathers the scores, the norm
// violations the agents saw in their percepts and the norm audit's split of
// them into avoidable and unavoidable ones (package scenario/normaudit),
// into a table by simulation and opponent. "massim scores" is its command
// (docs/evaluating-teams.md); the flags and the choice of strategies stay
// in cmd/massim.
package evaluate
