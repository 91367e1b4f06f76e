//go:build race

package scenario

// raceEnabled lets long randomized tests shrink under the race detector,
// which multiplies their cost while scenario has no goroutines to check.
const raceEnabled = true
