// Package maps builds the initial terrain of an Agents Assemble simulation:
// the generation instructions of CONFIG.md §7.2 ("cave" cellular automaton,
// "line-border", "ragged-border"), bitmap map files (§7.1: uncompressed BMP and
// PNG), connectivity on the torus (Regions, Carve) and the randomFreeCell scan
// of SCENARIO.md §6.1. The map files we ship live in shipped/ and are embedded
// (Shipped, LoadShipped).
//
// Everything here is a pure function of its arguments: no globals besides the
// read-only embedded files, no clocks, no goroutines. All randomness comes from
// the caller's Rand in the exact draw order the spec writes, so a seed
// determines the terrain. Only the standard library is imported.
//
// Grids are flat slices indexed y*W+x; the grid is a torus (SCENARIO.md §1.1)
// for the automaton and for connectivity.
package maps
