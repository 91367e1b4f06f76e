package bt

import (
	"maps"
	"slices"
	"sync"
)

// Blackboard is an agent's private key-value store, shared by the nodes and
// skills of its tree. It is used by one goroutine only.
type Blackboard struct{ m map[string]any }

// NewBlackboard returns an empty blackboard.
func NewBlackboard() *Blackboard { return &Blackboard{m: map[string]any{}} }

// Get returns the value under key.
func (b *Blackboard) Get(key string) (any, bool) {
	v, ok := b.m[key]
	return v, ok
}

// Set stores v under key.
func (b *Blackboard) Set(key string, v any) { b.m[key] = v }

// Delete removes key.
func (b *Blackboard) Delete(key string) { delete(b.m, key) }

// Clear removes everything.
func (b *Blackboard) Clear() { clear(b.m) }

// Keys lists the keys in sorted order.
func (b *Blackboard) Keys() []string { return slices.Sorted(maps.Keys(b.m)) }

// TeamBoard is a key-value store shared by the agents of a team running in
// one process; agents tick in parallel goroutines, so every access locks.
type TeamBoard struct {
	mu sync.Mutex
	m  map[string]any
}

// NewTeamBoard returns an empty team board.
func NewTeamBoard() *TeamBoard { return &TeamBoard{m: map[string]any{}} }

// Get returns the value under key.
func (t *TeamBoard) Get(key string) (any, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	v, ok := t.m[key]
	return v, ok
}

// Set stores v under key.
func (t *TeamBoard) Set(key string, v any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.m[key] = v
}

// Delete removes key.
func (t *TeamBoard) Delete(key string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.m, key)
}

// Update runs f with the board locked, for read-modify-write changes such
// as claiming a task. f must not call other TeamBoard methods.
func (t *TeamBoard) Update(f func(m map[string]any)) {
	t.mu.Lock()
	defer t.mu.Unlock()
	f(t.m)
}
