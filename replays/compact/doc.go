// Package compact writes and reads massim-go's own replay format: one file
// per simulation holding a match record (the expanded match config, the
// seed, the teams) and the step records of package codec, zstd-compressed in
// chunks of a few steps, with an index at the end.
//
// The writer appends each chunk as soon as its steps are done, so a server
// that dies loses at most the chunk it was filling; the reader then finds the
// chunks by scanning and marks the replay incomplete. A damaged chunk (a
// flipped byte, a cut, a hole) costs only the steps of its segment from that
// chunk on: the next segment starts with a keyframe and is read as usual.
// The layout is specified in docs/replays.md, "Compact format".
package compact
