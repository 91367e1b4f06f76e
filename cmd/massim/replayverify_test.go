package main

import (
	"bytes"
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/clients/team"
	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/replays/compact"
	"github.com/massim-go/massim/replays/stream"
	"github.com/massim-go/massim/server"
	"github.com/massim-go/massim/sim"
)

// sampleMatch plays the demo's match, cut to steps and with the given seed,
// between the sample teams (builder and random) over loopback TCP, and
// returns the compact replay the server wrote.
func sampleMatch(t *testing.T, seed int64, steps int) string {
	t.Helper()
	cfg, err := config.Demo()
	require.NoError(t, err)
	cfg.Match[0].Steps, cfg.Match[0].RandomSeed, cfg.Match[0].HasRandomSeed = steps, seed, true
	dir := t.TempDir()
	st := stream.New(stream.Options{Interval: 25}, stream.NewCompactFiles(dir, compact.WriterOptions{NoSync: true}, zerolog.Nop()))
	srv := server.New(cfg, zerolog.Nop(), server.Options{Dir: filepath.Join(dir, "results"), Listen: "127.0.0.1:0",
		Observers: []sim.Observer{st}, WaitForAgents: 30 * time.Second})
	require.NoError(t, srv.Listen())
	addr := srv.Addr().(*net.TCPAddr)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for i, tm := range cfg.Teams {
		newBehaviour, err := strategyFactory(demoStrategy(i), seed+int64(i))
		require.NoError(t, err)
		wg.Go(func() {
			err := team.Run(ctx, team.Config{Host: "127.0.0.1", Port: addr.Port, Team: tm.Name, Prefix: tm.Prefix,
				Password: tm.Password, Count: cfg.MaxTeamSize(), Logger: zerolog.Nop()}, newBehaviour)
			if err != nil && !errors.Is(err, context.Canceled) {
				t.Errorf("team %s: %v", tm.Name, err)
			}
		})
	}
	_, err = srv.Run(context.Background())
	cancel()
	wg.Wait()
	require.NoError(t, err)
	require.NoError(t, st.Close())
	files, err := filepath.Glob(filepath.Join(dir, "*"+compact.Extension))
	require.NoError(t, err)
	require.Len(t, files, 1)
	return files[0]
}

// TestReplayVerify_SampleTeamsOverTCP is the proof of determinism on real
// matches: the sample teams play over TCP, and every replay re-simulates to
// the same bytes.
func TestReplayVerify_SampleTeamsOverTCP(t *testing.T) {
	seeds := []int64{1, 2, 3, 4, 5, 6}
	if testing.Short() {
		seeds = seeds[:2]
	}
	for _, seed := range seeds {
		path := sampleMatch(t, seed, 60)
		var out, errOut bytes.Buffer
		code := run([]string{"replay", "verify", path}, &out, &errOut)
		require.Equal(t, 0, code, "seed %d: %s%s", seed, out.String(), errOut.String())
		assert.Contains(t, out.String(), "all 61 steps (-1 … 59) identical", "seed %d", seed)
	}
}

func TestReplayVerify_ExitCodesAndMessages(t *testing.T) {
	var out, errOut bytes.Buffer
	assert.Equal(t, 2, run([]string{"replay", "verify"}, &out, &errOut))
	assert.Contains(t, errOut.String(), "need one replay file")

	path := sampleMatch(t, 9, 12)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"flipped byte", flip(data, len(data)/2), "damaged"},
		{"not a replay", []byte(`{"sim":"x"}`), "not a compact replay"},
	} {
		p := filepath.Join(t.TempDir(), "r"+compact.Extension)
		require.NoError(t, os.WriteFile(p, tc.data, 0o644))
		out.Reset()
		errOut.Reset()
		assert.Equal(t, 1, run([]string{"replay", "verify", p}, &out, &errOut), tc.name)
		assert.Contains(t, errOut.String(), tc.want, tc.name)
		assert.False(t, strings.Contains(errOut.String(), "panic"), tc.name)
	}
	// Cut in its header or match record: it holds no step, which is no
	// difference: incomplete.
	for _, cut := range []int{5, 20} {
		p := filepath.Join(t.TempDir(), "r"+compact.Extension)
		require.NoError(t, os.WriteFile(p, data[:cut], 0o644))
		out.Reset()
		assert.Equal(t, exitIncompleteReplay, run([]string{"replay", "verify", p}, &out, &errOut), "cut at %d", cut)
		assert.Contains(t, out.String(), "the replay is incomplete: it holds no step", "cut at %d", cut)
	}
}

// An incomplete replay that is identical as far as it goes exits 3, so a
// script can tell it from a complete one (0).
func TestReplayVerify_AnIncompleteReplayExits3(t *testing.T) {
	path := sampleMatch(t, 9, 40)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	cut := filepath.Join(t.TempDir(), "cut"+compact.Extension)
	require.NoError(t, os.WriteFile(cut, data[:len(data)*2/3], 0o644))
	var out, errOut bytes.Buffer
	assert.Equal(t, 3, run([]string{"replay", "verify", cut}, &out, &errOut), out.String()+errOut.String())
	assert.Contains(t, out.String(), "identical to the simulation")
	assert.Contains(t, out.String(), "the replay is incomplete")
}

func flip(data []byte, at int) []byte {
	out := bytes.Clone(data)
	out[at] ^= 0x20
	return out
}

func TestReplayConvert_BothWaysAndUsage(t *testing.T) {
	dir := t.TempDir()
	dst := filepath.Join(dir, "fixture"+compact.Extension)
	var out, errOut bytes.Buffer
	src := "../../replays/testdata/official/2000-01-01-12-00-00-946728000000_Alpha_Beta"
	require.Equal(t, 0, run([]string{"replay", "convert", src, dst}, &out, &errOut), errOut.String())
	assert.Contains(t, out.String(), "(compact): 9 steps")
	back := filepath.Join(dir, "2000-01-01-12-00-00-946728000000_Alpha_Beta")
	require.Equal(t, 0, run([]string{"replay", "convert", dst, back, "-to", "official"}, &out, &errOut), errOut.String())
	assert.FileExists(t, filepath.Join(back, "static.json"))
	assert.FileExists(t, filepath.Join(back, "5.json"))

	errOut.Reset()
	assert.Equal(t, 1, run([]string{"replay", "verify", dst}, &out, &errOut))
	assert.Contains(t, errOut.String(), "no match record")
	assert.Equal(t, 2, run([]string{"replay", "convert", src}, &out, &errOut))
	assert.Equal(t, 2, run([]string{"replay", "convert", src, dst + "2", "-to", "zip"}, &out, &errOut))
	assert.Equal(t, 1, run([]string{"replay", "convert", src, dst}, &out, &errOut), "DST exists")
}
