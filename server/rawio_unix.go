//go:build unix

package server

import (
	"syscall"
	"unsafe"
)

const rawIOSupported = true

func rawRead(fd uintptr, b []byte) (int, error)  { return rawIO(sysRecv, fd, b) }
func rawWrite(fd uintptr, b []byte) (int, error) { return rawIO(sysSend, fd, b) }

// rawIO is the receive or send call (sysRecv, sysSend) of b on fd without
// entering the scheduler's system call state: only for non-blocking
// descriptors. The arguments past the third are zero: no flags and no
// address for recvfrom(2) and sendto(2), ignored by read(2) and write(2).
func rawIO(call uintptr, fd uintptr, b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	n, _, errno := syscall.RawSyscall6(call, fd, uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)), 0, 0, 0)
	if errno != 0 {
		return 0, errno
	}
	return int(n), nil
}
