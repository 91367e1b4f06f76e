package server

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/protocol"
)

// The session reader waits for the socket as soon as a read does not fill
// its buffer, without the read that would say "nothing yet"
// (socketReader.serve). Answers must still arrive however the bytes are cut
// into reads: each step below is only complete when agentA1's answer
// counted, and a lost answer would show as no_action.
func TestSessionReader_AnswersArriveHoweverTheBytesAreCut(t *testing.T) {
	rec := &recorder{}
	cfg := testConfig(t, 30000, 6, 1)
	cfg.Server.MaxPacketLength = 1 << 16
	ts := startServer(t, cfg, rec)
	a, b := login(t, ts, "agentA1", "1"), login(t, ts, "agentB1", "2")
	ts.start()
	a.expect(protocol.TypeSimStart)
	b.expect(protocol.TypeSimStart)
	action := func(id int64) string {
		return `{"type":"action","content":{"id":` + itoa(id) + `,"type":"skip","p":[]}}`
	}
	pause := func() { time.Sleep(20 * time.Millisecond) } // separate segments (TCP_NODELAY), not a condition
	// A status-request padded so that its 0 byte is the last byte of the
	// server's 32 KiB read buffer when it is read whole.
	status := `{"type":"status-request","content":{}}`
	padded := status[:len(status)-1] + strings.Repeat(" ", 32<<10-len(status)-1) + "}\x00"
	require.Len(t, padded, 32<<10)

	ways := []struct {
		name   string
		send   func(id int64)
		status int // status responses to expect
	}{
		{"split in three segments, the 0 byte alone", func(id int64) {
			f := action(id)
			a.sendRaw([]byte(f[:10]))
			pause()
			a.sendRaw([]byte(f[10:]))
			pause()
			a.sendRaw([]byte{0})
		}, 0},
		{"one byte per segment", func(id int64) {
			for _, c := range []byte(action(id) + "\x00") {
				a.sendRaw([]byte{c})
			}
		}, 0},
		{"two frames in one write", func(id int64) {
			a.sendRaw([]byte(status + "\x00" + action(id) + "\x00"))
		}, 1},
		{"a frame that ends at the end of the read buffer, then the answer in the same write", func(id int64) {
			a.sendRaw([]byte(padded + action(id) + "\x00"))
		}, 1},
		{"a frame that ends at the end of the read buffer, the answer later", func(id int64) {
			a.sendRaw([]byte(padded))
			pause()
			a.sendRaw([]byte(action(id) + "\x00"))
		}, 1},
		{"the answer with the start of the next frame", func(id int64) {
			a.sendRaw([]byte(action(id) + "\x00" + status[:5]))
			pause()
			a.sendRaw([]byte(status[5:] + "\x00"))
		}, 1},
	}
	for step, w := range ways {
		ra := a.expect(protocol.TypeRequestAction).(protocol.RequestAction)
		require.Equal(t, step, ra.Step)
		w.send(ra.ID)
		for range w.status {
			a.expect(protocol.TypeStatusResponse)
		}
		rb := b.expect(protocol.TypeRequestAction).(protocol.RequestAction)
		b.act(rb.ID, "skip")
	}
	a.expect(protocol.TypeSimEnd)
	ts.wait(t, 60*time.Second)
	require.NoError(t, ts.err)
	for step, w := range ways {
		assert.Equal(t, "skip", rec.entity(step, "agentA1").Action, "step %d: %s", step, w.name)
	}
}

// wouldBlockSource is a socket with nothing to read.
type wouldBlockSource struct{}

func (wouldBlockSource) Read([]byte) (int, error) { return 0, protocol.ErrWouldBlock }

// Every batch of answers ends in a read that finds the socket empty: that
// must cost nothing (it went through errors.As, with an allocation, each time).
func TestSession_AnEmptySocketCostsNoAllocation(t *testing.T) {
	s := &session{acc: &account{user: "a"}, srv: &Server{log: zerolog.Nop()}, log: zerolog.Nop()}
	reader := protocol.NewFrameReader(wouldBlockSource{}, 0)
	allocs := testing.AllocsPerRun(100, func() {
		if err := s.readFrame(reader); !errors.Is(err, protocol.ErrWouldBlock) {
			t.Fatalf("readFrame = %v, want ErrWouldBlock", err)
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per empty read, want 0", allocs)
	}
}

// BenchmarkSessionEmptyRead is the read that ends every batch of answers:
// the socket has nothing more (see TestSession_AnEmptySocketCostsNoAllocation).
func BenchmarkSessionEmptyRead(b *testing.B) {
	s := &session{acc: &account{user: "a"}, srv: &Server{log: zerolog.Nop()}, log: zerolog.Nop()}
	reader := protocol.NewFrameReader(wouldBlockSource{}, 0)
	b.ReportAllocs()
	for b.Loop() {
		if err := s.readFrame(reader); !errors.Is(err, protocol.ErrWouldBlock) {
			b.Fatalf("readFrame = %v, want ErrWouldBlock", err)
		}
	}
}
