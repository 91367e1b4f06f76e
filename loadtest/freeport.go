package loadtest

import (
	"fmt"
	"net"
	"sync"
)

// portsHandedOut remembers every port FreePort gave out in this process:
// the kernel may offer a port again as soon as its probe listener closes,
// and two callers (a monitor and an agent port, or two tests) must not get
// the same one.
var portsHandedOut = struct {
	sync.Mutex
	ports map[int]bool
}{ports: map[int]bool{}}

// FreePort is a loopback port nobody listens on now and that this process
// has not handed out before.
func FreePort() (int, error) {
	portsHandedOut.Lock()
	defer portsHandedOut.Unlock()
	for range 100 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return 0, fmt.Errorf("loadtest: find a free port: %w", err)
		}
		port := l.Addr().(*net.TCPAddr).Port
		if err := l.Close(); err != nil {
			return 0, fmt.Errorf("loadtest: find a free port: %w", err)
		}
		if !portsHandedOut.ports[port] {
			portsHandedOut.ports[port] = true
			return port, nil
		}
	}
	return 0, fmt.Errorf("loadtest: find a free port: 100 offers were all handed out before")
}
