// Package mapgen draws the maps we ship in maps/shipped. Each map is a pure
// function of a fixed seed, so `go run ./maps/internal/mkmaps` rewrites the
// same files and a test checks the committed files against a fresh drawing.
// Every map is finished by connect: tiny free pockets are filled and the
// remaining free regions joined with maps.Carve, so all free cells of a
// shipped map are mutually reachable.
package mapgen
