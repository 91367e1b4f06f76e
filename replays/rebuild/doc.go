// Package rebuild puts the world of a compact replay back into the state of
// any of its steps by playing its match record again, as massim replay verify
// does (docs/practice.md): the world of step N, the percept an agent
// received at step N exactly as the server sent it, and a small cache of
// worlds so that a viewer stepping forward costs one step each.
package rebuild
