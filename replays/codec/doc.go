// Package codec turns the snapshots of a simulation into step records and
// back: a keyframe holds a whole world, a delta only what changed since the
// step before, and each record also carries how every agent answered the
// step (the match record). The same records are stored, zstd-compressed, in
// compact replay files (package compact) and sent to live viewers, whose
// page decodes them with a JavaScript port of Decoder.
//
// The encoding is a pure function of the snapshot sequence, the answers and
// the keyframe interval: the same match always gives the same bytes, which is
// what "massim replay verify" compares. The byte layout is specified in
// docs/replays.md, "Compact format".
package codec
