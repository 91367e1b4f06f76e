package stream

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/massim-go/massim/replays/codec"
	"github.com/massim-go/massim/replays/compact"
	"github.com/massim-go/massim/scenario"
	"github.com/massim-go/massim/sim"
)

// Sim is a simulation as the sinks see it.
type Sim struct {
	Info   sim.Info
	Static scenario.Static
	// Meta is the compact replay's match record (Interval set).
	Meta compact.Meta
	// Initial is the frame of step -1.
	Initial *Frame
}

// Frame is one step, encoded once for every sink. Its fields are never
// modified; the lazily made forms are computed at most once, on whichever
// goroutine asks first.
type Frame struct {
	Sim      *Sim
	Step     int
	Snapshot *scenario.Snapshot
	// Record is the step's record as the encoder wrote it: a keyframe at
	// the segment starts, else a delta from the step before.
	Record   []byte
	Keyframe bool

	table    []string     // the encoder's string table after this step
	answers  []sim.Answer // every agent's answer (nil: unrecorded); see KeyRecord
	jsonOnce sync.Once
	json     []byte
	keyOnce  sync.Once
	key      []byte
}

// JSON is the snapshot in the official layout.
func (f *Frame) JSON() []byte {
	f.jsonOnce.Do(func() {
		b, err := json.Marshal(f.Snapshot)
		if err != nil { // a snapshot always encodes; keep the feed well-formed anyway
			b = fmt.Appendf(nil, `{"step":%d,"error":%q}`, f.Step, err.Error())
		}
		f.json = b
	})
	return f.json
}

// KeyRecord is a keyframe of this step that continues the encoder's string
// table, for a viewer who starts here and then follows the deltas.
func (f *Frame) KeyRecord() []byte {
	if f.Keyframe {
		return f.Record
	}
	f.keyOnce.Do(func() {
		f.key = codec.EncodeKeyframe(nil, f.Sim.Static.Width, f.Sim.Static.Height, f.table, f.Snapshot, f.answers)
	})
	return f.key
}

// Scores are the frame's scores in the static team order.
func (f *Frame) Scores() []int64 {
	out := make([]int64, len(f.Sim.Static.Teams))
	for i, t := range f.Sim.Static.Teams {
		for _, s := range f.Snapshot.Scores {
			if s.Team == t {
				out[i] = s.Score
			}
		}
	}
	return out
}

// Sink receives the simulations of a stream, on the stream's goroutine and
// in order. Calls may do I/O; a sink that is slow holds up the stream (and,
// once its queue is full, the step loop).
type Sink interface {
	Begin(sim *Sim)
	Step(f *Frame)
	// End finishes the simulation: result is nil when it was cut short.
	End(sim *Sim, result *sim.Result)
	// Close is called once when the stream closes.
	Close() error
}

// InlineSink is a Sink that the stream calls on the step loop, in the
// observer calls: its Begin, Step and End are cheap and never block (it
// does its I/O on a goroutine of its own), and it keeps nothing of a frame
// after Step returns (it copies what it needs). A step then wakes no other
// goroutine for it; and when every sink is inline, the stream reuses each
// step's frame and record buffer.
type InlineSink interface {
	Sink
	// Inline marks the sink; it is never called.
	Inline()
}

// MetaOf builds the match record of a simulation.
func MetaOf(info sim.Info, static scenario.Static, interval int) (compact.Meta, error) {
	match, err := json.Marshal(info.Config)
	if err != nil {
		return compact.Meta{}, fmt.Errorf("stream: encode the match entry: %w", err)
	}
	rec := &compact.Record{Seed: info.Seed, Agents: info.Agents, Match: match, AgentTimeoutMs: info.AgentTimeout.Milliseconds()}
	for i, t := range info.Teams {
		team := compact.Team{Name: t}
		if i < len(info.Prefixes) {
			team.Prefix = info.Prefixes[i]
		}
		rec.Teams = append(rec.Teams, team)
	}
	for _, p := range []string{info.Config.Grid.File, info.Config.Setup} {
		if p == "" || info.ReadFile == nil {
			continue
		}
		data, err := info.ReadFile(p)
		if err != nil {
			return compact.Meta{}, fmt.Errorf("stream: record %s: %w", p, err)
		}
		if rec.Files == nil {
			rec.Files = map[string][]byte{}
		}
		rec.Files[p] = data
	}
	return compact.Meta{Sim: info.Name, MatchStart: info.MatchStart, Static: compact.StaticOf(static),
		Interval: interval, Origin: "massim-go", Record: rec}, nil
}
