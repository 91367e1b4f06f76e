// Package btfile reads behaviour files: a small text format for behaviour
// trees (package bt) and for assigning behaviours to the agents of a team.
// The format and the node semantics are documented in docs/behaviour-files.md.
//
// Loading parses a root file and its includes, then compiles every
// behaviour against a bt.Registry, so unknown skills or functions, wrong
// argument counts and type errors are reported at load time with
// file:line:column, never in the middle of a match.
package btfile
