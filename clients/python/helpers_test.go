package python

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/clients/random"
	"github.com/massim-go/massim/clients/team"
	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/server"
)

// python3 is the interpreter the tests run; missing, the test fails.
func python3(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("python3")
	require.NoError(t, err, "python3 is missing: run scripts/install/python.sh")
	return p
}

// pythonCmd runs python3 with args in this folder (the package on the
// path); the process is killed when the test ends.
func pythonCmd(t *testing.T, ctx context.Context, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.CommandContext(ctx, python3(t), args...)
	wd, err := os.Getwd()
	require.NoError(t, err)
	cmd.Dir = wd
	cmd.Env = append(os.Environ(), "PYTHONPATH="+wd, "PYTHONUNBUFFERED=1", "PYTHONDONTWRITEBYTECODE=1")
	cmd.WaitDelay = 5 * time.Second
	return cmd
}

// match is a demo server on loopback with the random team as B.
type match struct {
	addr    *net.TCPAddr
	done    chan struct{}
	summary server.Summary
	err     error
}

// startDemo serves the demo config (changed by edit) on a free loopback
// port and connects Go random agents as team B.
func startDemo(t *testing.T, ctx context.Context, seed int64, edit func(*config.Config)) *match {
	t.Helper()
	cfg, err := config.Demo()
	require.NoError(t, err)
	cfg.Match[0].RandomSeed, cfg.Match[0].HasRandomSeed = seed, true
	cfg.Server.ResultPath = t.TempDir()
	if edit != nil {
		edit(cfg)
	}
	srv := server.New(cfg, zerolog.Nop(), server.Options{Listen: "127.0.0.1:0", WaitForAgents: 2 * time.Minute})
	require.NoError(t, srv.Listen())
	m := &match{addr: srv.Addr().(*net.TCPAddr), done: make(chan struct{})}
	var wg sync.WaitGroup
	rctx, stopRandom := context.WithCancel(ctx)
	wg.Go(func() {
		b := cfg.Teams[1]
		err := team.Run(rctx, team.Config{Host: "127.0.0.1", Port: m.addr.Port, Team: b.Name, Prefix: b.Prefix,
			Password: b.Password, Count: cfg.MaxTeamSize()}, random.ForTeam(seed))
		if err != nil && !errors.Is(err, context.Canceled) {
			t.Errorf("random team: %v", err)
		}
	})
	go func() {
		m.summary, m.err = srv.Run(ctx)
		stopRandom()
		wg.Wait()
		close(m.done)
	}()
	t.Cleanup(func() { stopRandom(); <-m.done })
	return m
}

// wait returns team A's score once the tournament is over.
func (m *match) wait(t *testing.T) int64 {
	t.Helper()
	<-m.done
	require.NoError(t, m.err)
	require.Len(t, m.summary.Matches, 1)
	for _, s := range m.summary.Matches[0].Simulations[0].Result.Scores {
		if s.Team == "A" {
			return s.Score
		}
	}
	t.Fatal("no score of team A")
	return 0
}

// frame is what the proxy reads of a frame: its type and, for
// request-action and action, the id and step.
type frame struct {
	Type    string `json:"type"`
	Content struct {
		ID   json.RawMessage `json:"id"`
		Step int             `json:"step"`
		User string          `json:"user"`
	} `json:"content"`
}

func (f frame) id() int {
	n, err := strconv.Atoi(string(f.Content.ID))
	if err != nil {
		return -1
	}
	return n
}

// proxy forwards agent connections to the server byte for byte and lets a
// test watch the frames of each connection (and cut one).
type proxy struct {
	t      *testing.T
	ln     net.Listener
	target string
	// onFrame sees every frame; toClient tells the direction. Returning true
	// for a frame to the client cuts the client side right after it: the
	// server side stays open (the server still waits for that answer).
	onFrame func(c *proxyConn, toClient bool, f frame) (cut bool)
}

type proxyConn struct {
	User string // from the auth-request
	N    int    // this user's connection count, from 1
}

func newProxy(t *testing.T, target string, onFrame func(c *proxyConn, toClient bool, f frame) bool) *proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	p := &proxy{t: t, ln: ln, target: target, onFrame: onFrame}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var open []net.Conn
	counts := map[string]int{}
	go func() {
		for {
			client, err := ln.Accept()
			if err != nil {
				return
			}
			srv, err := net.Dial("tcp", target)
			if err != nil {
				t.Errorf("proxy dial: %v", err)
				client.Close()
				continue
			}
			mu.Lock()
			open = append(open, client, srv)
			mu.Unlock()
			pc := &proxyConn{}
			var cut sync.Once
			cutCh := make(chan struct{})
			wg.Go(func() { // client -> server
				r := bufio.NewReader(client)
				for {
					raw, err := r.ReadBytes(0)
					if err != nil {
						return
					}
					var f frame
					_ = json.Unmarshal(bytes.TrimSuffix(raw, []byte{0}), &f)
					if f.Type == "auth-request" {
						mu.Lock()
						counts[f.Content.User]++
						pc.User, pc.N = f.Content.User, counts[f.Content.User]
						mu.Unlock()
					}
					select {
					case <-cutCh:
						return // nothing after the cut reaches the server
					default:
					}
					p.onFrame(pc, false, f)
					if _, err := srv.Write(raw); err != nil {
						return
					}
				}
			})
			wg.Go(func() { // server -> client
				r := bufio.NewReader(srv)
				for {
					raw, err := r.ReadBytes(0)
					if err != nil {
						client.Close()
						return
					}
					var f frame
					_ = json.Unmarshal(bytes.TrimSuffix(raw, []byte{0}), &f)
					doCut := p.onFrame(pc, true, f)
					if doCut {
						cut.Do(func() { close(cutCh) })
					}
					if _, err := client.Write(raw); err != nil {
						return
					}
					if doCut {
						client.Close()
						_, _ = io.Copy(io.Discard, r) // keep the server side open and drained
						return
					}
				}
			})
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		for _, c := range open {
			c.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	return p
}

func (p *proxy) port() int { return p.ln.Addr().(*net.TCPAddr).Port }
