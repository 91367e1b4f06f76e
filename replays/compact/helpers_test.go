package compact_test

import (
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/replays/codec"
	"github.com/massim-go/massim/replays/compact"
	"github.com/massim-go/massim/replays/matchtest"
	"github.com/massim-go/massim/scenario"
)

func play(t testing.TB, teams, agents, size, steps int, seed int64) *matchtest.Played {
	t.Helper()
	cfg, err := matchtest.Config(teams, agents, size, steps)
	require.NoError(t, err)
	p, err := matchtest.Play(cfg, 0, matchtest.Options{Seed: seed, Players: uint64(seed), Sloppy: true})
	require.NoError(t, err)
	return p
}

func metaOf(p *matchtest.Played, interval int) compact.Meta {
	return compact.Meta{Sim: "sim", MatchStart: time.Date(2000, 1, 1, 12, 0, 0, 0, time.UTC),
		Static: compact.StaticOf(p.Static), Interval: interval, Origin: "massim-go"}
}

// write writes the first n snapshots of p (all when n < 0).
func write(t testing.TB, dir string, p *matchtest.Played, interval, chunk, n int) string {
	t.Helper()
	path, _ := writeWatching(t, dir, p, interval, chunk, n)
	return path
}

// writeWatching is write, also reporting whether the writer still wrote
// raw after the last step.
func writeWatching(t testing.TB, dir string, p *matchtest.Played, interval, chunk, n int) (string, bool) {
	t.Helper()
	return writeWith(t, filepath.Join(dir, "sim"+compact.Extension), p, interval, compact.WriterOptions{ChunkSteps: chunk, NoSync: true}, n)
}

// writeWith writes the first n snapshots of p (all when n < 0) to path
// with opts.
func writeWith(t testing.TB, path string, p *matchtest.Played, interval int, opts compact.WriterOptions, n int) (string, bool) {
	t.Helper()
	w, err := compact.Create(path, metaOf(p, interval), opts)
	require.NoError(t, err)
	addSteps(t, w, p, interval, n)
	raw := w.WritesRaw()
	require.NoError(t, w.Close())
	return path, raw
}

// addSteps encodes the first n snapshots of p (all when n < 0) and adds
// them to w.
func addSteps(t testing.TB, w *compact.Writer, p *matchtest.Played, interval, n int) {
	t.Helper()
	enc := codec.NewEncoder(p.Static.Width, p.Static.Height, interval)
	for i, snap := range p.Snapshots {
		if n >= 0 && i >= n {
			break
		}
		rec, key, err := enc.Encode(nil, snap, p.Answers[i])
		require.NoError(t, err)
		require.NoError(t, w.Add(snap.Step, key, rec, snap.Scores))
	}
}

func jsonOf(t testing.TB, s *scenario.Snapshot) string {
	t.Helper()
	b, err := json.Marshal(s)
	require.NoError(t, err)
	return string(b)
}
