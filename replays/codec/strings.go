package codec

import "unsafe"

// Every string of a record (names, roles, actions, results, block types…)
// is written as an index into the string table. A keyframe starts a new
// table and lists it in full; a delta lists the strings it adds, which get
// the next indexes. The table therefore only grows between keyframes, and a
// decoder that starts at any keyframe knows every index the following deltas
// use.

// interner is the encoder's side of the table.
type interner struct {
	ids  map[string]uint64
	list []string
	seen int // strings already announced in an earlier record
	// recent caches the ids of strings met lately by where their bytes
	// are (recentSlot): a record's strings are a few dozen values (action
	// names and parameters, results, roles) repeated by every agent, mostly
	// the very same string values (the constants of packages protocol and
	// scenario), which compare by pointer at once.
	recent [128]recentString
}

// recentSlot is s's place in interner.recent: a Fibonacci hash of the
// address of its bytes, so that neither the hash nor the comparison of a
// cached string reads them (each string's bytes are a cache line of their
// own that the step's other work has pushed out). Equal strings at
// different addresses (an agent's parameter parsed into a new string) take
// different slots and are found in the map instead; an earlier hash of
// every byte (FNV-1a) found those in the cache but read every byte of
// every string to do so.
func recentSlot(s string) int {
	p := uint64(uintptr(unsafe.Pointer(unsafe.StringData(s))))
	return int(p * 0x9E3779B97F4A7C15 >> (64 - 7)) // 128 slots
}

type recentString struct {
	s  string
	id uint64
}

func newInterner() *interner { return &interner{ids: map[string]uint64{}} }

// fromTable continues a table that decoders already know (a keyframe made
// for a viewer joining mid-segment lists the table as it is).
func fromTable(table []string) *interner {
	in := &interner{ids: make(map[string]uint64, len(table)), list: table[:len(table):len(table)]}
	for i, s := range table {
		if _, dup := in.ids[s]; !dup {
			in.ids[s] = uint64(i)
		}
	}
	in.seen = len(table)
	return in
}

func (in *interner) id(s string) uint64 {
	var r *recentString
	if len(s) > 0 {
		r = &in.recent[recentSlot(s)]
		if r.s == s {
			return r.id
		}
	}
	id, ok := in.ids[s]
	if !ok {
		id = uint64(len(in.list))
		in.ids[s] = id
		in.list = append(in.list, s)
	}
	if r != nil {
		r.s, r.id = s, id
	}
	return id
}

// fresh returns the strings added since the last call.
func (in *interner) fresh() []string {
	out := in.list[in.seen:]
	in.seen = len(in.list)
	return out
}

// str writes a string reference.
func (s *sink) str(in *interner, v string) { s.uint(in.id(v)) }

// str reads a string reference.
func (s *source) str(table []string) string {
	id := s.uint()
	if s.err != nil {
		return ""
	}
	if id >= uint64(len(table)) {
		s.fail("string %d not in the table of %d", id, len(table))
		return ""
	}
	return table[id]
}

func (s *source) strList(table []string) []string {
	n := s.count()
	out := make([]string, 0, n)
	for range n {
		out = append(out, s.str(table))
	}
	return out
}

func (s *sink) strList(in *interner, v []string) {
	s.count(len(v))
	for _, x := range v {
		s.str(in, x)
	}
}
