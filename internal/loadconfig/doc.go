// Package loadconfig writes the contest-like match that our load and
// replay measurements play (massim bench and the replay packages' tests and
// benchmarks share it, so their figures are about the same world): every
// role, clear events and norms, a 45 % cave, sized by teams, agents, grid
// and steps.
package loadconfig
