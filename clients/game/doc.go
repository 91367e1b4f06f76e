// Package game holds the typed vocabulary of an Agents Assemble client:
// directions, rotations and relative positions; constructors for every 2022
// action (Move, Attach, Rotate, Connect, Request, Submit, Clear, Adopt,
// Survey, Skip, ...); the result codes; and typed percepts built from the
// wire messages of package protocol.
//
// Everything here is what an agent can know from the protocol alone: all
// positions are relative to the agent, as the server sends them.
package game
