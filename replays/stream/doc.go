// Package stream encodes each step of a running simulation once and hands
// the result to every sink that needs it: the compact replay file, the
// official replay folder, the live monitor. It is a sim.Observer: it
// encodes on the caller's goroutine (the step loop) and calls the inline
// sinks there (the compact file, which hands whole chunks to a writer
// goroutine of its own); the other sinks get the frames, in order, on the
// stream's goroutine through a queue. When every sink is inline, the
// stream gives the snapshots it no longer reads back to the step loop
// (sim.SnapshotRecycler).
package stream
