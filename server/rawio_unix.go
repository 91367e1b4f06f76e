//go:build unix

package server

import (
	"syscall"
	"unsafe"
)

const rawIOSupported = true

func rawRead(fd uintptr, b []byte) (int, error)  { return rawIO(syscall.SYS_READ, fd, b) }
func rawWrite(fd uintptr, b []byte) (int, error) { return rawIO(syscall.SYS_WRITE, fd, b) }

// rawIO is read(2) or write(2) of b on fd without entering the scheduler's
// system call state: only for non-blocking descriptors.
func rawIO(call uintptr, fd uintptr, b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	n, _, errno := syscall.RawSyscall(call, fd, uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
	if errno != 0 {
		return 0, errno
	}
	return int(n), nil
}
