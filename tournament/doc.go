// Package tournament is the tournament folder and the rules of a
// tournament, without its runtime (docs/tournaments.md): the manifest that
// decides what was played (Manifest, SimRecord), the stats file, the match
// result files of docs/config.md, "Result files", the standings with their
// points and their merge over several folders, the schedule of the
// tournament modes and its line-ups, the folder lock, the tidying after a
// crash, and the status a running tournament reports (Status, TeamRoster,
// StatusObserver).
//
// It has no socket, no clock of its own and no goroutine: the server
// (package server) writes a folder while it plays; the league, publish, the
// standings command and the monitor read folders through it without
// importing the server.
package tournament
