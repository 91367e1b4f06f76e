//go:build !(linux && (amd64 || arm64))

package compact

// asyncSyncSupported says whether newAsyncSyncer can work here: elsewhere
// every sync is a plain fsync.
const asyncSyncSupported = false

type asyncSyncer struct{}

func newAsyncSyncer() *asyncSyncer { return nil }

func (a *asyncSyncer) start(uintptr) (bool, error) { return false, nil }

func (a *asyncSyncer) collect() error { return nil }

func (a *asyncSyncer) close() error { return nil }
