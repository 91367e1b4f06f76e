// Package scenariotest helps test and benchmark code that drives a world:
// a random player that turns percepts into a mix of sensible, pointless and
// malformed actions, reproducibly from a seed.
//
// It sees only what an agent sees (protocol percepts) and imports nothing
// of scenario, so scenario's own tests can use it too.
package scenariotest
