//go:build unix && (!linux || 386)

package server

import "syscall"

// Elsewhere (and on 32-bit x86 Linux, where the socket calls go through
// socketcall(2)) the sessions' sockets are read and written with read(2)
// and write(2).
const (
	sysRecv = syscall.SYS_READ
	sysSend = syscall.SYS_WRITE
)
