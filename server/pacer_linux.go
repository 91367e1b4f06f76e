package server

import (
	"syscall"
	"time"
	"unsafe"
)

// holdThread keeps the calling goroutine's thread asleep for d without
// telling the Go scheduler: the goroutine stays running, so nothing else
// runs on its P and the network poller is not consulted meanwhile (see
// answerPacer). A signal (the runtime's preemption, e.g. for a garbage
// collection) ends it early.
func holdThread(d time.Duration) {
	if d <= 0 {
		return
	}
	ts := syscall.NsecToTimespec(int64(d))
	_, _, _ = syscall.RawSyscall(syscall.SYS_NANOSLEEP, uintptr(unsafe.Pointer(&ts)), 0, 0)
}
