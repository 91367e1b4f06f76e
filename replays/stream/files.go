package stream

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/rs/zerolog"

	"github.com/massim-go/massim/replays"
	"github.com/massim-go/massim/replays/compact"
	"github.com/massim-go/massim/server"
)

// CompactFiles is the sink that writes one compact replay file per
// simulation into a folder: <matchStart>-<simName>.mreplay.
type CompactFiles struct {
	dir  string
	opts compact.WriterOptions
	log  zerolog.Logger
	w    *compact.Writer
	errs []error
}

// NewCompactFiles writes the replays into dir (which must exist).
func NewCompactFiles(dir string, opts compact.WriterOptions, log zerolog.Logger) *CompactFiles {
	return &CompactFiles{dir: dir, opts: opts, log: log}
}

// CompactPath is the replay file of a simulation in dir.
func CompactPath(dir string, info server.SimInfo) string {
	return filepath.Join(dir, replays.FolderName(info.MatchStart, info.Name)+compact.Extension)
}

// Begin implements Sink.
func (c *CompactFiles) Begin(sim *Sim) {
	w, err := compact.Create(CompactPath(c.dir, sim.Info), sim.Meta, c.opts)
	if err != nil {
		c.fail(sim, err)
		return
	}
	c.w = w
}

// Step implements Sink.
func (c *CompactFiles) Step(f *Frame) {
	if c.w == nil {
		return
	}
	if err := c.w.Add(f.Step, f.Keyframe, f.Record, f.Snapshot.Scores); err != nil {
		c.fail(f.Sim, err)
		c.abandon()
	}
}

// End implements Sink.
func (c *CompactFiles) End(sim *Sim, result *server.SimResult) {
	if c.w == nil {
		return
	}
	err := c.w.Close()
	c.w = nil
	if err != nil {
		c.fail(sim, err)
	} else if result == nil {
		c.log.Warn().Str("sim", sim.Info.Name).Msg("replay is incomplete: the simulation was cut short")
	}
}

// Close implements Sink.
func (c *CompactFiles) Close() error { return errors.Join(c.errs...) }

func (c *CompactFiles) abandon() {
	if c.w != nil {
		_ = c.w.Close() // the error is the one already reported
		c.w = nil
	}
}

// maxErrors bounds the errors kept for Close (a full disk fails every write).
const maxErrors = 20

func (c *CompactFiles) fail(sim *Sim, err error) {
	c.log.Error().Err(err).Str("sim", sim.Info.Name).Msg("replay write failed")
	if len(c.errs) < maxErrors {
		c.errs = append(c.errs, fmt.Errorf("replay of %s: %w", sim.Info.Name, err))
	}
}

// OfficialFolders is the sink that writes the official replay layout
// through a replays.Writer (which does its I/O on its own goroutine).
type OfficialFolders struct{ w *replays.Writer }

// NewOfficialFolders writes official replay folders below dir.
func NewOfficialFolders(dir string, log zerolog.Logger) *OfficialFolders {
	return &OfficialFolders{w: replays.NewWriter(dir, replays.WriterOptions{Log: log})}
}

// Begin implements Sink.
func (o *OfficialFolders) Begin(sim *Sim) {
	o.w.Start(replays.FolderName(sim.Info.MatchStart, sim.Info.Name), sim.Static, sim.Initial.Snapshot)
}

// Step implements Sink. The snapshot's JSON is the frame's, made once for
// this writer and the live /live/monitor feed.
func (o *OfficialFolders) Step(f *Frame) {
	if f.Step >= 0 {
		o.w.StepEncoded(f.Snapshot, f.JSON)
	}
}

// End implements Sink.
func (o *OfficialFolders) End(*Sim, *server.SimResult) { o.w.End() }

// Close implements Sink.
func (o *OfficialFolders) Close() error { return o.w.Close() }
