//go:build unix

package compact

import (
	"os"
	"syscall"
	"unsafe"
)

// rawWriteSupported says whether appendRaw can write without entering the
// scheduler's system call state.
const rawWriteSupported = true

// appendRaw writes b to the regular file fd with write(2) as a raw system
// call: the Go scheduler does not see it. Short writes and EINTR are
// retried; it returns how much was written.
func appendRaw(fd uintptr, b []byte) (int, error) {
	n := 0
	for n < len(b) {
		m, _, errno := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&b[n])), uintptr(len(b)-n))
		switch {
		case errno == syscall.EINTR:
			continue
		case errno != 0:
			return n, os.NewSyscallError("write", errno)
		case m == 0:
			return n, os.NewSyscallError("write", syscall.EIO) // never for a regular file
		}
		n += int(m)
	}
	return n, nil
}
