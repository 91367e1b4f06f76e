// Package maps builds the initial terrain of an Agents Assemble simulation:
// the generation instructions of docs/config.md, "Terrain" ("cave" cellular automaton,
// "line-border", "ragged-border"), bitmap map files (docs/config.md, "Terrain": uncompressed BMP and
// PNG), connectivity on the torus (Regions, Carve) and the randomFreeCell scan
// of docs/rules.md, "Setting up a simulation". The map files we ship live in shipped/ and are embedded
// (Shipped, LoadShipped).
//
// Everything here is a pure function of its arguments: no globals besides the
// read-only embedded files, no clocks, no goroutines. All randomness comes from
// the caller's Rand in the documented draw order (docs/config.md, "Terrain"), so a seed
// determines the terrain. Only the standard library is imported.
//
// Grids are flat slices indexed y*W+x; the grid is a torus (docs/rules.md, "The grid")
// for the automaton and for connectivity.
package maps
