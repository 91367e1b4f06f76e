package stream_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/replays"
	"github.com/massim-go/massim/replays/codec"
	"github.com/massim-go/massim/replays/matchtest"
	"github.com/massim-go/massim/replays/stream"
	"github.com/massim-go/massim/scenario"
	"github.com/massim-go/massim/sim"
)

// frames is a sink that keeps every frame.
type frames struct{ got []*stream.Frame }

func (f *frames) Begin(*stream.Sim)            {}
func (f *frames) Step(fr *stream.Frame)        { f.got = append(f.got, fr) }
func (f *frames) End(*stream.Sim, *sim.Result) {}
func (f *frames) Close() error                 { return nil }

// TestStream_OfficialFoldersWriteTheFramesJSON: the official writer stores
// the JSON the frame made (once, for it and the live feed), byte for byte.
func TestStream_OfficialFoldersWriteTheFramesJSON(t *testing.T) {
	dir := t.TempDir()
	keep := &frames{}
	s := stream.New(stream.Options{}, stream.NewOfficialFolders(dir, zerolog.Nop()), keep)
	cfg, err := matchtest.Config(2, 3, 16, 12)
	require.NoError(t, err)
	info := sim.Info{Name: "1_A_B", MatchStart: time.Date(2000, 1, 1, 0, 0, 0, 0, time.Local), Steps: 12}
	_, err = matchtest.Play(cfg, 0, matchtest.Options{Seed: 2, Players: 3, Observer: func(snap *scenario.Snapshot, _ []codec.Answer) {
		if snap.Step < 0 {
			s.SimulationStarted(info, scenario.Static{Sim: info.Name, Width: 16, Height: 16, Steps: 12}, snap)
			return
		}
		s.StepDone(info, snap)
	}})
	require.NoError(t, err)
	s.SimulationEnded(info, sim.Result{})
	require.NoError(t, s.Close())
	data, err := os.ReadFile(filepath.Join(dir, replays.FolderName(info.MatchStart, info.Name), "5.json"))
	require.NoError(t, err)
	var group map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(data, &group))
	for _, f := range keep.got {
		if f.Step >= 5 && f.Step < 10 {
			assert.Equal(t, string(f.JSON()), string(group[strconv.Itoa(f.Step)]), "step %d", f.Step)
		}
	}
}
