//go:build !linux

package server

import (
	"net"
	"time"
)

// setUserTimeout does nothing where TCP_USER_TIMEOUT does not exist; the
// silence timeout and keepalive still apply.
func setUserTimeout(net.Conn, time.Duration) {}
