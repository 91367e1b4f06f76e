// Package team runs a whole team of agents against a MASSim server: one
// connection (package agent) per account, each in its own goroutine, with the
// account names the server expects (prefix + team name + index from 1).
package team
