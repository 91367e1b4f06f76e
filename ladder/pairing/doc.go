// Package pairing decides which ready teams of a ladder play each other
// (docs/seasons.md, "Pairing"). It is pure and deterministic: the same
// ready teams, requests, history figures, seed and time give the same
// pairs.
package pairing
