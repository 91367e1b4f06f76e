package compact

import "time"

// SetSlowRawWrite changes the raw write limit until the test ends.
func SetSlowRawWrite(t interface{ Cleanup(func()) }, d time.Duration) {
	old := slowRawWrite
	slowRawWrite = d
	t.Cleanup(func() { slowRawWrite = old })
}

// WritesRaw says whether w's next write is a raw one.
func (w *Writer) WritesRaw() bool { return w.raw }

// RawWriteSupported is rawWriteSupported.
const RawWriteSupported = rawWriteSupported

// AsyncSyncs is the number of syncs w started without waiting.
func (w *Writer) AsyncSyncs() int { return w.asyncSyncs }

// AsyncSyncSupported is asyncSyncSupported.
const AsyncSyncSupported = asyncSyncSupported
