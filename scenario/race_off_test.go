//go:build !race

package scenario

// raceEnabled: see race_on_test.go.
const raceEnabled = false
