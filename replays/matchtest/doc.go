// Package matchtest plays simulations in-process for the tests and
// benchmarks of the replay packages (and the monitor's): a config's world, random players
// (package scenariotest) and a made-up answer record with agents that time
// out, answer late or are offline now and then.
package matchtest
