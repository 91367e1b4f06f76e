package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/clients/team"
	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/protocol"
	"github.com/massim-go/massim/replays/compact"
	"github.com/massim-go/massim/replays/stream"
	"github.com/massim-go/massim/server"
)

// rawAgent is one agent that keeps every request-action's percept exactly
// as it came over the wire, and answers with the action its choose gives.
type rawAgent struct {
	user     string
	percepts map[int][]byte // by step, the bytes of the "percept" value
}

// choose picks an agent's action for a step ("": no answer).
type choose func(step int) (string, []string)

// randomChoice moves, rotates, requests, attaches and clears at random.
func randomChoice(seed uint64) choose {
	rng := rand.New(rand.NewPCG(seed, 7))
	dirs := []string{"n", "s", "e", "w"}
	return func(int) (string, []string) {
		d := dirs[rng.IntN(4)]
		switch rng.IntN(8) {
		case 0:
			return "rotate", []string{[]string{"cw", "ccw"}[rng.IntN(2)]}
		case 1:
			return "request", []string{d}
		case 2:
			return "attach", []string{d}
		case 3:
			return "clear", []string{strconv.Itoa(rng.IntN(5) - 2), strconv.Itoa(rng.IntN(5) - 2)}
		case 4:
			return "skip", nil
		}
		return "move", []string{d}
	}
}

// play logs in and answers every request-action until bye or EOF.
func (a *rawAgent) play(addr, password string, pick choose) error {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		return err
	}
	defer conn.Close()
	w := protocol.NewFrameWriter(conn)
	if err := w.WriteMessage(&protocol.AuthRequest{User: a.user, Password: password}); err != nil {
		return err
	}
	r := protocol.NewFrameReader(conn, 1<<24)
	for {
		frame, err := r.Next()
		if err != nil {
			return nil // the server closed the connection
		}
		var msg struct {
			Type    string          `json:"type"`
			Content json.RawMessage `json:"content"`
		}
		if err := json.Unmarshal(frame, &msg); err != nil {
			return fmt.Errorf("%s: %w", a.user, err)
		}
		switch msg.Type {
		case "bye":
			return nil
		case "request-action":
			var ra struct {
				ID      int64           `json:"id"`
				Step    int             `json:"step"`
				Percept json.RawMessage `json:"percept"`
			}
			if err := json.Unmarshal(msg.Content, &ra); err != nil {
				return fmt.Errorf("%s: %w", a.user, err)
			}
			a.percepts[ra.Step] = append([]byte(nil), ra.Percept...)
			name, params := pick(ra.Step)
			if name == "" {
				continue // no answer
			}
			if err := w.WriteMessage(&protocol.Action{ID: ra.ID, Type: name, Params: params}); err != nil {
				return nil // the server has gone
			}
		}
	}
}

// recordedMatch plays cfg's first match over loopback TCP: the agents of
// the first rawTeams teams are raw agents that record their percepts
// (answering with pick of their name and index among the raw agents), the others the
// builder. It returns the compact replay and the raw agents.
func recordedMatch(t *testing.T, cfg *config.Config, opts server.Options, rawTeams int, pick func(user string, i int) choose) (string, []*rawAgent) {
	t.Helper()
	dir := t.TempDir()
	st := stream.New(stream.Options{Interval: 25}, stream.NewCompactFiles(dir, compact.WriterOptions{NoSync: true}, zerolog.Nop()))
	opts.Dir, opts.Listen = filepath.Join(dir, "results"), "127.0.0.1:0"
	opts.Observers = append(opts.Observers, st)
	opts.WaitForAgents = 30 * time.Second
	srv := server.New(cfg, zerolog.Nop(), opts)
	require.NoError(t, srv.Listen())
	addr := srv.Addr().String()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var agents []*rawAgent
	for k, tm := range cfg.Teams[:min(max(cfg.Server.TeamsPerMatch, 1), len(cfg.Teams))] {
		if k >= rawTeams {
			nb, err := strategyFactory("builder", int64(3+k))
			require.NoError(t, err)
			wg.Go(func() {
				err := team.Run(ctx, team.Config{Host: "127.0.0.1", Port: srv.Addr().(*net.TCPAddr).Port, Team: tm.Name,
					Prefix: tm.Prefix, Password: tm.Password, Count: cfg.MaxTeamSize(), Logger: zerolog.Nop()}, nb)
				if err != nil && !errors.Is(err, context.Canceled) {
					t.Errorf("builder: %v", err)
				}
			})
			continue
		}
		for i := range cfg.MaxTeamSize() {
			a := &rawAgent{user: tm.Prefix + tm.Name + strconv.Itoa(i+1), percepts: map[int][]byte{}}
			pick := pick(a.user, len(agents))
			agents = append(agents, a)
			wg.Go(func() {
				if err := a.play(addr, tm.Password, pick); err != nil {
					t.Errorf("%s: %v", a.user, err)
				}
			})
		}
	}
	_, err := srv.Run(context.Background())
	cancel()
	wg.Wait()
	require.NoError(t, err)
	require.NoError(t, st.Close())
	files, err := filepath.Glob(filepath.Join(dir, "*"+compact.Extension))
	require.NoError(t, err)
	require.Len(t, files, 1)
	return files[0], agents
}
