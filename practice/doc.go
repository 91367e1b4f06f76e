// Package practice is what massim practice does besides flags and output
// (docs/practice.md): a local server for one simulation with a chosen
// opponent, the monitor and a replay, and the continuation of a recorded
// simulation from any of its steps (also used by massim serve -from).
package practice
