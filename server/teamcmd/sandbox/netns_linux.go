package sandbox

import (
	"context"
	"fmt"
	"net"
	"os"
	"runtime"
	"strconv"

	"golang.org/x/sys/unix"
)

// loopbackUp brings the loopback interface of the caller's (fresh) network
// namespace up: 127.0.0.1 is the only address there.
func loopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("sandbox: loopback: %w", err)
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return fmt.Errorf("sandbox: loopback: %w", err)
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		return fmt.Errorf("sandbox: loopback flags: %w", err)
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	if err := unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr); err != nil {
		return fmt.Errorf("sandbox: bring loopback up: %w", err)
	}
	return nil
}

// ListenIn opens a TCP listener (with lc, nil for the defaults) on
// 127.0.0.1:port inside the network namespace of process pid (a team's
// supervisor) and returns it. The
// socket belongs to that namespace for good, but it is this process's: it
// accepts the team's connections like any other, and nothing copies their
// bytes. The caller needs CAP_SYS_ADMIN (root).
func ListenIn(pid int, lc *net.ListenConfig, port int) (net.Listener, error) {
	if lc == nil {
		lc = &net.ListenConfig{}
	}
	ns, err := os.Open("/proc/" + strconv.Itoa(pid) + "/ns/net")
	if err != nil {
		return nil, fmt.Errorf("sandbox: the team's network namespace: %w", err)
	}
	defer ns.Close()
	type result struct {
		l   net.Listener
		err error
	}
	done := make(chan result, 1)
	go func() {
		// A thread that has entered another namespace is never given back
		// to Go unless it has returned to ours: if that fails, the thread
		// ends with this goroutine (LockOSThread without Unlock).
		runtime.LockOSThread()
		own, err := os.Open("/proc/thread-self/ns/net")
		if err != nil {
			done <- result{err: fmt.Errorf("sandbox: own network namespace: %w", err)}
			return
		}
		defer own.Close()
		if err := unix.Setns(int(ns.Fd()), unix.CLONE_NEWNET); err != nil {
			runtime.UnlockOSThread()
			done <- result{err: fmt.Errorf("sandbox: enter the team's network namespace: %w", err)}
			return
		}
		l, lerr := lc.Listen(context.Background(), "tcp", "127.0.0.1:"+strconv.Itoa(port))
		if err := unix.Setns(int(own.Fd()), unix.CLONE_NEWNET); err != nil {
			if l != nil {
				_ = l.Close()
			}
			done <- result{err: fmt.Errorf("sandbox: return from the team's network namespace: %w", err)}
			return
		}
		runtime.UnlockOSThread()
		if lerr != nil {
			lerr = fmt.Errorf("sandbox: listen in the team's network namespace: %w", lerr)
		}
		done <- result{l, lerr}
	}()
	r := <-done
	return r.l, r.err
}
