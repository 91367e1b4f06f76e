// Package league plays a whole tournament on one machine as separate
// match processes (docs/leagues.md): the plan of its matches, written once
// to DIR/league.json; the runner, which starts each match as a child
// "massim match -league DIR -index I", a number of them at a time, each in
// a process group of its own, and stops them cleanly on a signal; the
// progress view; and the standings, merged from the match folders after
// every match with a rating for every team (package league/rating).
//
// A league is resumable like a tournament: a match whose folder records it
// as finished is never played again; any other match is played by a child
// that continues it after its last completed simulation (massim match is
// idempotent), so a match cut short is played again from the start of the
// simulation it was in.
//
// A league may play every line-up several times (rounds.go: -rounds, the
// sides moved along and a seed per round), and play chosen matches again
// from scratch after a fix (replay.go: -replay, -replay-team), their old
// folders set aside and recorded in the plan, never deleted.
package league
