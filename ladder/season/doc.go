// Package season is the folder of a ladder season and its rules, without
// the runtime (docs/seasons.md): the season file (its seed), the record of
// the registered teams, the match folders (each a tournament folder of one
// match, written by the server, plus the ladder's match.json), the history
// read back from them with the recovery of matches cut by a crash, the
// standings and ratings of the rated matches with each team's rating
// history, the qualification rule with its evidence, and the book of
// requested scrimmages with its rate limits.
//
// Nothing here has a socket or a goroutine: massim ladder (package ladder)
// runs the season and calls in; massim publish reads what it writes.
package season
