package compact

import (
	"os"
	"time"
)

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

// AsyncSyncWorks says whether a writer of a file in dir starts its syncs
// without waiting: the build supports it and the system takes an
// asynchronous fsync of a file there (a container may refuse AIO, a file
// system may not offer it; the writer then syncs the usual way).
func AsyncSyncWorks(dir string) (bool, error) {
	if !asyncSyncSupported {
		return false, nil
	}
	a := newAsyncSyncer()
	if a == nil {
		return false, nil
	}
	f, err := os.CreateTemp(dir, "probe")
	if err != nil {
		return false, err
	}
	defer os.Remove(f.Name())
	defer f.Close()
	submitted, err := a.start(f.Fd())
	if cerr := a.close(); err == nil {
		err = cerr
	}
	return submitted, err
}
