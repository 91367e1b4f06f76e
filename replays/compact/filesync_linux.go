//go:build linux && (amd64 || arm64)

package compact

import (
	"os"
	"sync"
	"syscall"
	"time"
	"unsafe"
)

// asyncSyncSupported says whether newAsyncSyncer can work here.
const asyncSyncSupported = true

// asyncSyncer starts a file's segment syncs without waiting for them: an
// fsync submitted through Linux's native AIO (IOCB_CMD_FSYNC) is carried
// out by a kernel worker, and the writer only collects its result later.
//
// Why: a server runs on one P. A plain fsync keeps that P in the
// scheduler's system call state for the ~0.2–1 ms the disk takes; the
// runtime's monitor thread then takes the P away, hands it to another
// thread and looks again every 20 µs for a millisecond more. The submission
// and the collection are raw system calls of a few microseconds that the
// scheduler does not see. The file is on disk when the sync completes, as
// with fsync; only the waiting is gone.
type asyncSyncer struct {
	ctx     uint64 // the AIO context (io_setup)
	cb      aioCB  // the request; the kernel copies it at submission
	cbs     [1]*aioCB
	ev      [1]aioEvent
	pending bool // a sync was submitted and its result not collected yet
	broken  bool // its result could not be collected: the context is not reused
}

// aioCB is struct iocb of linux/aio_abi.h (little-endian layout).
type aioCB struct {
	data      uint64
	key       uint32
	rwFlags   int32
	opcode    uint16
	reqPrio   int16
	fd        uint32
	buf       uint64
	nbytes    uint64
	offset    int64
	reserved2 uint64
	flags     uint32
	resFD     uint32
}

// aioEvent is struct io_event of linux/aio_abi.h.
type aioEvent struct {
	data, obj uint64
	res, res2 int64
}

const aioCmdFsync = 2 // IOCB_CMD_FSYNC

// idleSyncers are syncers whose writers closed, kept for the next ones:
// releasing an AIO context (io_destroy) waits several milliseconds for the
// kernel, and a server writes one file after another.
var idleSyncers struct {
	sync.Mutex
	list []*asyncSyncer
}

// maxIdleSyncers bounds idleSyncers (contexts are a system-wide resource).
const maxIdleSyncers = 4

// newAsyncSyncer returns an idle syncer or sets up an AIO context for one
// request; nil when the system refuses (AIO disabled, its limit reached):
// the writer then syncs the usual way.
func newAsyncSyncer() *asyncSyncer {
	idleSyncers.Lock()
	if n := len(idleSyncers.list); n > 0 {
		a := idleSyncers.list[n-1]
		idleSyncers.list = idleSyncers.list[:n-1]
		idleSyncers.Unlock()
		return a
	}
	idleSyncers.Unlock()
	a := &asyncSyncer{}
	if _, _, errno := syscall.RawSyscall(syscall.SYS_IO_SETUP, 1, uintptr(unsafe.Pointer(&a.ctx)), 0); errno != 0 {
		return nil
	}
	a.cbs[0] = &a.cb
	return a
}

// start submits an fsync of fd. The result of the sync before it is
// collected first (see collect); its error, if any, is returned and nothing
// is submitted. An error of the submission itself (a file system without
// asynchronous fsync) is returned with submitted false: the caller syncs
// the usual way.
func (a *asyncSyncer) start(fd uintptr) (submitted bool, err error) {
	if err := a.collect(); err != nil {
		return false, err
	}
	a.cb = aioCB{opcode: aioCmdFsync, fd: uint32(fd)}
	// Submitting only queues the work for a kernel worker: it does not
	// wait for the disk, so it is made raw, like the chunk writes.
	n, _, errno := syscall.RawSyscall(syscall.SYS_IO_SUBMIT, uintptr(a.ctx), 1, uintptr(unsafe.Pointer(&a.cbs[0])))
	if errno != 0 || n != 1 {
		return false, nil
	}
	a.pending = true
	return true, nil
}

// collect waits for the submitted sync, if any, and returns its error. It
// never blocks in a system call (which would keep the P in the scheduler's
// system call state, as fsync did): it looks at the result with a raw
// io_getevents that does not wait and sleeps between looks, from 50 µs on,
// doubling up to 5 ms. A segment's sync is long done when the next one
// starts; the closing sync takes about a millisecond: a few looks.
func (a *asyncSyncer) collect() error {
	for pause := 50 * time.Microsecond; a.pending; pause = min(2*pause, 5*time.Millisecond) {
		var zero syscall.Timespec
		n, _, errno := syscall.RawSyscall6(syscall.SYS_IO_GETEVENTS, uintptr(a.ctx), 1, 1,
			uintptr(unsafe.Pointer(&a.ev[0])), uintptr(unsafe.Pointer(&zero)), 0)
		switch {
		case errno == syscall.EINTR:
			continue
		case errno != 0:
			a.pending, a.broken = false, true
			return os.NewSyscallError("io_getevents", errno)
		case n == 1:
			a.pending = false
			if a.ev[0].res < 0 {
				return os.NewSyscallError("fsync", syscall.Errno(-a.ev[0].res))
			}
			return nil
		}
		time.Sleep(pause)
	}
	return nil
}

// close collects the pending sync and keeps the syncer for another writer
// (or releases its context when enough are kept).
func (a *asyncSyncer) close() error {
	err := a.collect()
	idleSyncers.Lock()
	if !a.broken && len(idleSyncers.list) < maxIdleSyncers {
		idleSyncers.list = append(idleSyncers.list, a)
		idleSyncers.Unlock()
		return err
	}
	idleSyncers.Unlock()
	if _, _, errno := syscall.Syscall(syscall.SYS_IO_DESTROY, uintptr(a.ctx), 0, 0); errno != 0 && err == nil {
		err = os.NewSyscallError("io_destroy", errno)
	}
	return err
}
