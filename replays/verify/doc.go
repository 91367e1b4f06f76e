// Package verify proves a compact replay: it plays the simulation again in
// process from the replay's match record (the expanded match entry, the
// seed, the teams) and every step's recorded answers, encodes each step
// exactly as the server did and compares the bytes with the stored record.
// Equal bytes mean an equal world; at the first difference it reports what
// differs, field by field.
package verify
