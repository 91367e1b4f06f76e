//go:build linux && !386

package server

import "syscall"

// On Linux the sessions' sockets are read and written with recvfrom(2) and
// sendto(2) rather than read(2) and write(2): the socket calls skip the
// file layer's work for each call (the file position lock and the
// read/write checks), one call per agent and step each way.
const (
	sysRecv = syscall.SYS_RECVFROM
	sysSend = syscall.SYS_SENDTO
)
