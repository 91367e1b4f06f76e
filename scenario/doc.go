// Package scenario is the Agents Assemble world of MASSim 2022: the torus grid,
// things and their attachments, entities with roles and energy, the actions and
// their failure codes, clear events, norms, tasks, scores, percepts and snapshots.
//
// It is pure: no network, files, clocks, goroutines or global state. All
// randomness comes from the World's RNG, seeded from Params.Seed, and every
// collection that can influence the game or its output is iterated in a fixed
// order, so the same seed and the same actions always give the same match.
// The rules are documented in docs/rules.md, snapshots in docs/replays.md,
// "Snapshots".
//
// A simulation is driven from outside, one step at a time:
//
//	w, _ := scenario.New(params, teams)   // set-up, step -1
//	for !w.Done() {
//		w.Prepare()                         // preparation of the next step
//		p, _ := w.Percept(agent)            // for every agent
//		w.Execute(actions)                  // action phase
//		_ = w.Snapshot()
//	}
//
// A World is not safe for concurrent use; snapshots and percepts it has
// handed out are never modified afterwards and may be read anywhere.
// Setup files (docs/config.md, "Setup files") are parsed by ParseSetup into Params.Setup and
// applied by New before step 0. Package scenariotest has a random player
// for tests and benchmarks.
package scenario
