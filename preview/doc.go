// Package preview renders an Agents Assemble world as a picture, so that
// organisers can look at a map before a tournament: terrain, goal and role
// zones, dispensers and blocks coloured by block type, agents coloured by
// team, and an optional legend. It draws from the public description of a
// world (scenario.Static and a scenario.Snapshot), so the initial snapshot
// shows exactly the world the server would play, and any later snapshot
// (e.g. from a replay) can be drawn the same way. Only the standard library
// is used; the legend has its own tiny bitmap font.
package preview
