package loadtest

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"runtime"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// rusageThread is Linux's RUSAGE_THREAD: the CPU of the calling thread alone.
const rusageThread = 1

// measureIOFloor is "massim bench -floor": the least CPU any server must
// spend on the protocol's I/O for a load, with no world, percepts or JSON.
// Per agent and step it writes one request-action-sized frame and reads one
// answer — the protocol's minimum — with raw non-blocking socket calls
// (recvfrom and sendmsg: like the server's own, they skip the file layer)
// and one epoll set on one locked thread, and charges that thread's CPU
// alone (user + system, which includes the loopback delivery and waking the
// reader, as it does for the real server). The answering agents run in this process
// on other threads, so their CPU is not counted.
func measureIOFloor(agents, steps, frameBytes int) (FloorReport, error) {
	report := FloorReport{Agents: agents, Steps: steps, FrameBytes: frameBytes}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return report, fmt.Errorf("bench: floor: %w", err)
	}
	defer ln.Close()
	// Agents that cannot connect must not leave the measurement waiting.
	if err := ln.(*net.TCPListener).SetDeadline(time.Now().Add(time.Minute)); err != nil {
		return report, fmt.Errorf("bench: floor: %w", err)
	}
	clientErr := make(chan error, 1)
	go func() { clientErr <- answerFrames(ln.Addr().String(), agents) }()

	fds := make([]int, 0, agents)
	defer func() { // closing our ends ends the agents' goroutines
		for _, fd := range fds {
			syscall.Close(fd)
		}
	}()
	for range agents {
		conn, err := ln.Accept()
		if err != nil {
			return report, fmt.Errorf("bench: floor: accept: %w", err)
		}
		fd, err := detachFD(conn.(*net.TCPConn))
		if err != nil {
			return report, err
		}
		fds = append(fds, fd)
	}

	// The measured loop owns its thread, so RUSAGE_THREAD is its cost alone.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	ep, err := syscall.EpollCreate1(syscall.EPOLL_CLOEXEC)
	if err != nil {
		return report, fmt.Errorf("bench: floor: epoll: %w", err)
	}
	defer syscall.Close(ep)
	for i, fd := range fds {
		ev := syscall.EpollEvent{Events: syscall.EPOLLIN, Fd: int32(i)}
		if err := syscall.EpollCtl(ep, syscall.EPOLL_CTL_ADD, fd, &ev); err != nil {
			return report, fmt.Errorf("bench: floor: epoll add: %w", err)
		}
	}
	frame := bytes.Repeat([]byte{'x'}, frameBytes)
	frame[len(frame)-1] = 0
	events := make([]syscall.EpollEvent, 512)
	buf := make([]byte, 64<<10)

	var before, after syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &before); err != nil {
		return report, fmt.Errorf("bench: floor: getrusage: %w", err)
	}
	began := time.Now()
	for range steps {
		for _, fd := range fds {
			if err := writeAll(fd, frame); err != nil {
				return report, err
			}
		}
		answered := 0
		for answered < agents {
			n, err := syscall.EpollWait(ep, events, 10_000)
			if err != nil && !errors.Is(err, syscall.EINTR) {
				return report, fmt.Errorf("bench: floor: epoll wait: %w", err)
			}
			if n == 0 && err == nil {
				return report, fmt.Errorf("bench: floor: no answer for 10 s (%d of %d this step)", answered, agents)
			}
			for _, ev := range events[:max(n, 0)] {
				got, _, err := unix.Recvfrom(fds[ev.Fd], buf, 0)
				if err != nil && !errors.Is(err, syscall.EAGAIN) {
					return report, fmt.Errorf("bench: floor: read: %w", err)
				}
				answered += bytes.Count(buf[:max(got, 0)], []byte{0})
			}
		}
		report.Answers += answered
	}
	wall := time.Since(began)
	if err := syscall.Getrusage(rusageThread, &after); err != nil {
		return report, fmt.Errorf("bench: floor: getrusage: %w", err)
	}
	user := time.Duration(after.Utime.Nano() - before.Utime.Nano())
	sys := time.Duration(after.Stime.Nano() - before.Stime.Nano())
	report.fill(user, sys, wall)
	for _, fd := range fds {
		syscall.Shutdown(fd, syscall.SHUT_RDWR)
	}
	return report, <-clientErr
}

// detachFD takes the socket away from Go's poller: it keeps a duplicate in
// non-blocking mode and closes the original, so only our epoll set sees it.
func detachFD(conn *net.TCPConn) (int, error) {
	f, err := conn.File()
	conn.Close()
	if err != nil {
		return -1, fmt.Errorf("bench: floor: %w", err)
	}
	fd, err := syscall.Dup(int(f.Fd()))
	f.Close()
	if err != nil {
		return -1, fmt.Errorf("bench: floor: dup: %w", err)
	}
	if err := syscall.SetNonblock(fd, true); err != nil {
		syscall.Close(fd)
		return -1, fmt.Errorf("bench: floor: %w", err)
	}
	return fd, nil
}

// writeAll writes one frame; a full socket buffer (an agent reading slowly)
// is waited out with poll rather than spun on.
func writeAll(fd int, frame []byte) error {
	for len(frame) > 0 {
		n, err := unix.SendmsgN(fd, frame, nil, nil, 0)
		switch {
		case errors.Is(err, syscall.EAGAIN):
			if err := waitWritable(fd); err != nil {
				return err
			}
		case err != nil:
			return fmt.Errorf("bench: floor: write: %w", err)
		default:
			frame = frame[n:]
		}
	}
	return nil
}

func waitWritable(fd int) error {
	for {
		_, err := unix.Poll([]unix.PollFd{{Fd: int32(fd), Events: unix.POLLOUT}}, 10_000)
		if err == nil {
			return nil
		}
		if !errors.Is(err, unix.EINTR) {
			return fmt.Errorf("bench: floor: poll: %w", err)
		}
	}
}
