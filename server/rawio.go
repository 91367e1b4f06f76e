package server

import (
	"io"
	"net"
	"syscall"

	"github.com/massim-go/massim/protocol"
)

// The hot path of a session — one request-action out and one action in per
// agent and step — reads and writes its socket with raw system calls on the
// non-blocking descriptor. They never block (EAGAIN instead), so they need
// not tell the Go scheduler they are in a system call; that also keeps the
// scheduler's monitor thread from being woken at the start of every step
// and polling every 20 µs while the step runs (a tenth of the server's CPU
// before). When the socket has no data, the reader waits in the runtime's
// network poller like any other.

// rawConn returns the connection's descriptor access, nil when it has none
// (then the session uses conn's ordinary methods).
func rawConn(conn net.Conn) syscall.RawConn {
	if !rawIOSupported {
		return nil
	}
	sc, ok := conn.(syscall.Conn)
	if !ok {
		return nil
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return nil
	}
	return rc
}

// nonBlockingWriter writes as much of a buffer as a socket takes at once.
// Its function is made once per session, so a write allocates nothing.
type nonBlockingWriter struct {
	raw     syscall.RawConn
	buf     []byte
	written int
	err     error
	fn      func(fd uintptr) bool
}

func newNonBlockingWriter(raw syscall.RawConn) *nonBlockingWriter {
	w := &nonBlockingWriter{raw: raw}
	w.fn = func(fd uintptr) bool {
		for w.written < len(w.buf) {
			n, err := rawWrite(fd, w.buf[w.written:])
			switch {
			case err == syscall.EINTR:
				continue
			case err == syscall.EAGAIN:
				return true
			case err != nil:
				w.err = err
				return true
			}
			w.written += n
		}
		return true // never wait for the socket: the writer goroutine does
	}
	return w
}

// write returns how much of b went out.
func (w *nonBlockingWriter) write(b []byte) (int, error) {
	w.buf, w.written, w.err = b, 0, nil
	err := w.raw.Write(w.fn)
	if err == nil {
		err = w.err
	}
	n := w.written
	w.buf = nil
	return n, err
}

// socketReader reads a connection with raw reads; when nothing is there it
// waits in the network poller (and honours the read deadline).
//
// serve keeps the reader inside one wait of the poller for a whole session:
// the frames of each wake-up are handled right there, and after a read that
// did not fill the buffer (the socket had no more at that moment) the next
// read is not tried — the reader waits at once. That saves the read that
// would only say EAGAIN, one per agent and step. It is safe because the
// poller's readiness is reset only when a wait of the poller starts: any
// bytes that arrive after a read wake the reader again (with edge-triggered
// epoll every arrival is an event), at worst for one read that finds the
// socket empty.
type socketReader struct {
	raw syscall.RawConn
	buf []byte
	n   int
	err error
	fn  func(fd uintptr) bool

	// While serving: the descriptor, and whether the socket was found
	// empty since the last wake-up.
	serving bool
	fd      uintptr
	drained bool
}

// newSocketReader reads conn, with raw reads when it is a socket.
func newSocketReader(conn net.Conn) io.Reader {
	rc := rawConn(conn)
	if rc == nil {
		return conn
	}
	r := &socketReader{raw: rc}
	r.fn = func(fd uintptr) bool {
		n, err := readOnce(fd, r.buf)
		if err == protocol.ErrWouldBlock {
			return false // wait until readable
		}
		r.n, r.err = n, err
		return true
	}
	return r
}

// readOnce reads fd once: ErrWouldBlock when it has nothing now, io.EOF
// when the peer closed it.
func readOnce(fd uintptr, b []byte) (int, error) {
	for {
		n, err := rawRead(fd, b)
		switch {
		case err == syscall.EINTR:
			continue
		case err == syscall.EAGAIN:
			return 0, protocol.ErrWouldBlock
		case err != nil:
			return 0, err
		case n == 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

func (r *socketReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if r.serving {
		if r.drained {
			return 0, protocol.ErrWouldBlock
		}
		n, err := readOnce(r.fd, p)
		r.drained = err == protocol.ErrWouldBlock || (err == nil && n < len(p))
		return n, err
	}
	r.buf, r.n, r.err = p, 0, nil
	err := r.raw.Read(r.fn)
	r.buf = nil
	if err != nil {
		return 0, err
	}
	return r.n, r.err
}

// serve calls handle each time the socket becomes readable, until it
// returns true; within handle, Read never waits: it returns
// protocol.ErrWouldBlock instead, and handle then returns false. The error
// is the poller's (the connection was closed, a deadline passed).
func (r *socketReader) serve(handle func() (done bool)) error {
	return r.raw.Read(func(fd uintptr) bool {
		r.serving, r.fd, r.drained = true, fd, false
		done := handle()
		r.serving = false
		return done
	})
}
