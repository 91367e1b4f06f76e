package monitor

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
)

// feed is what a viewer subscribed to.
type feed uint8

const (
	feedFrames     feed = iota // /live/frames: meta messages and step records
	feedMonitor                // /live/monitor: static worlds and snapshots
	feedStatus                 // /live/status: status messages
	feedTournament             // /live/tournament: the tournament's status
)

// frame is one message, encoded once and prepared once for every viewer.
type frame struct {
	static bool // a simulation starts: never dropped, supersedes older frames
	key    bool // a keyframe: supersedes the pending changes of a /live/frames viewer
	msg    *websocket.PreparedMessage
}

// viewer is one websocket connection. The hub goroutine pushes frames into
// its mailbox; the viewer's writer goroutine drains it.
type viewer struct {
	conn  *websocket.Conn
	feed  feed
	limit int // mailbox capacity in frames

	mu      sync.Mutex
	queue   []frame // pending, oldest first
	lost    int     // frames dropped since the last completed write
	lagging bool    // /live/frames: changes were dropped, a keyframe must come next
	wake    chan struct{}
	closed  chan struct{}
	once    sync.Once

	written atomic.Uint64 // frames written (tests, statistics)
}

func newViewer(conn *websocket.Conn, f feed, limit int) *viewer {
	return &viewer{conn: conn, feed: f, limit: limit,
		wake: make(chan struct{}, 1), closed: make(chan struct{})}
}

// push queues a frame and reports how many frames the viewer has lost in a
// row. A static world discards the pending frames: they belong to the
// previous simulation. A /live/frames viewer whose queue overflows loses
// all pending changes (each needs the one before) and is lagging until a
// keyframe replaces them.
func (v *viewer) push(f frame) int {
	v.mu.Lock()
	switch {
	case f.static:
		v.queue = append(v.queue[:0], f)
		v.lagging = false
	case f.key:
		v.queue = append(v.keepStatic(), f)
		v.lagging = false
	case v.lagging:
		v.lost++ // the keyframe to come covers it
	default:
		v.queue = append(v.queue, f)
		for len(v.queue) > v.limit {
			if v.feed == feedFrames {
				kept := v.keepStatic()
				v.lost += len(v.queue) - len(kept)
				v.queue = kept
				v.lagging = true
				break
			}
			drop := 0
			if v.queue[0].static && len(v.queue) > 1 {
				drop = 1 // keep the static world, lose the oldest snapshot
			}
			v.queue = append(v.queue[:drop], v.queue[drop+1:]...)
			v.lost++
		}
	}
	lost := v.lost
	v.mu.Unlock()
	select {
	case v.wake <- struct{}{}:
	default:
	}
	return lost
}

// keepStatic is the queue without its changes (under mu).
func (v *viewer) keepStatic() []frame {
	kept := v.queue[:0]
	for _, q := range v.queue {
		if q.static {
			kept = append(kept, q)
		}
	}
	clear(v.queue[len(kept):])
	return kept
}

// behind reports whether the viewer needs a keyframe.
func (v *viewer) behind() bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.lagging
}

// take empties the mailbox.
func (v *viewer) take(buf []frame) []frame {
	v.mu.Lock()
	defer v.mu.Unlock()
	buf = append(buf[:0], v.queue...)
	clear(v.queue)
	v.queue = v.queue[:0]
	return buf
}

func (v *viewer) progressed() {
	v.mu.Lock()
	v.lost = 0
	v.mu.Unlock()
	v.written.Add(1)
}

// close ends the connection; the writer and reader goroutines then stop.
func (v *viewer) close() {
	v.once.Do(func() {
		close(v.closed)
		_ = v.conn.NetConn().Close()
	})
}

// writeLoop sends queued frames and keep-alive pings until the connection
// fails or is closed.
func (v *viewer) writeLoop(writeTimeout, pingEvery time.Duration) {
	defer v.close()
	ping := time.NewTicker(pingEvery)
	defer ping.Stop()
	var batch []frame
	for {
		select {
		case <-v.closed:
			return
		case <-ping.C:
			if err := v.conn.WriteControl(websocket.PingMessage, nil, time.Now().Add(writeTimeout)); err != nil {
				return
			}
		case <-v.wake:
			batch = v.take(batch)
			for i, f := range batch {
				_ = v.conn.SetWriteDeadline(time.Now().Add(writeTimeout))
				if err := v.conn.WritePreparedMessage(f.msg); err != nil {
					return
				}
				batch[i] = frame{}
				v.progressed()
			}
		}
	}
}

// readLoop discards whatever the viewer sends (docs/replays.md, "/live/monitor") and notices
// when the connection goes away.
func (v *viewer) readLoop(pongWait time.Duration) {
	defer v.close()
	v.conn.SetReadLimit(4096)
	_ = v.conn.SetReadDeadline(time.Now().Add(pongWait))
	v.conn.SetPongHandler(func(string) error {
		return v.conn.SetReadDeadline(time.Now().Add(pongWait))
	})
	for {
		if _, _, err := v.conn.NextReader(); err != nil {
			return
		}
		_ = v.conn.SetReadDeadline(time.Now().Add(pongWait))
	}
}
