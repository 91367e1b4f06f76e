// Package rating fits a rating with an uncertainty to every team from
// pairwise results (docs/leagues.md, "Ratings"): the Bradley–Terry model by
// maximum likelihood, where team i beats team j with probability
// 1/(1+exp(θj−θi)).
//
// A draw counts as half a win for each side. We chose this over Davidson's
// extension (a draw parameter of its own) because the scores of a MASSim
// simulation rarely tie except at 0–0, so a draw parameter would be fit from
// a handful of games; half a win is also what the Elo scale people know
// does, and it keeps the likelihood one concave function of the θ alone.
//
// A weak prior makes every rating finite: each team plays one virtual draw
// against a virtual average team of θ = 0. Without it, a team that won
// every game would have θ = +∞, and teams of separate groups that never
// met (a disconnected comparison graph) would have no common zero. With it
// the log-likelihood is strictly concave, its maximum is unique, and a team
// without games rates exactly average. One draw weighs as much as one game,
// so it fades once a team has played a few.
//
// The uncertainty is the standard error from the observed Fisher
// information (the negative Hessian of the log-likelihood, prior included)
// at the maximum. Ratings and errors are reported on an Elo-like scale:
// 1500 + θ·400/ln 10, so 400 points are odds of 10 to 1.
//
// The package is pure: no I/O, no clock, no randomness; results depend only
// on the content of the input (its order only moves the last digits).
package rating
