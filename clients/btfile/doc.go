// Package btfile reads behaviour files: a small text format for behaviour
// trees (package bt) and for assigning behaviours to the agents of a team.
// The format is documented in clients/README.md; BEHAVIOUR.md describes the
// node semantics.
//
// Loading parses a root file and its includes, then compiles every
// behaviour against a bt.Registry, so unknown skills or functions, wrong
// argument counts and type errors are reported at load time with
// file:line:column, never in the middle of a match.
package btfile
