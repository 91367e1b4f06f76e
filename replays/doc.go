// Package replays writes and reads replays in the official MASSim 2022 folder
// layout (docs/replays.md, "Replay folders"): one folder per simulation holding static.json and
// one group file per five steps (0.json also holds the initial step -1).
//
// Writer is fed snapshots from the step loop and does all encoding and disk
// I/O on its own goroutine; every file is written under a temporary name and
// renamed into place, so a killed server leaves a replay that reads up to the
// last group it wrote. Open, Find and Replay read both our replays and those
// of the official Java server, with random access to any step.
package replays
