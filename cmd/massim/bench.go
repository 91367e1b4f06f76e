package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/rs/zerolog"

	"github.com/massim-go/massim/clients/random"
	"github.com/massim-go/massim/clients/team"
)

// runBench is the load command: it starts "massim serve" as a child process
// on loopback, connects instant-answering random agents from this process,
// plays one match and reports the server's steps/s, CPU per step and peak
// RSS (read from the child's rusage, so the agents' own work is not counted).
func runBench(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	teams := fs.Int("teams", 2, "number of teams")
	agents := fs.Int("agents", 50, "agents per team")
	size := fs.Int("size", 100, "grid width and height")
	steps := fs.Int("steps", 300, "steps of the match")
	port := fs.Int("port", 0, "agent port (0: a free one)")
	keep := fs.Bool("keep", false, "keep the generated config and the server log")
	if err := fs.Parse(args); err != nil {
		return &exitError{code: 2}
	}
	if *port == 0 {
		p, err := freePort()
		if err != nil {
			return err
		}
		*port = p
	}
	dir, err := os.MkdirTemp("", "massim-bench-")
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	if !*keep {
		defer os.RemoveAll(dir)
	}
	names := make([]string, *teams)
	for i := range names {
		names[i] = string(rune('A' + i))
	}
	confPath := filepath.Join(dir, "bench.json")
	if err := os.WriteFile(confPath, benchConfig(names, *agents, *size, *steps, *port, dir), 0o644); err != nil {
		return fmt.Errorf("bench: write config: %w", err)
	}
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("bench: find own binary: %w", err)
	}
	logFile, err := os.Create(filepath.Join(dir, "server.log"))
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	defer logFile.Close()
	m, err := startBenchMatch(self, confPath, nil, logFile, names, *agents, *port)
	if err != nil {
		return err
	}
	defer m.stop()
	fmt.Fprintf(stdout, "bench: %d teams × %d agents, %d×%d, %d steps; server pid %d, config %s\n",
		*teams, *agents, *size, *size, *steps, m.cmd.Process.Pid, confPath)
	m.waitForAgents()
	elapsed, usage, err := m.play()
	if err != nil {
		return fmt.Errorf("%w (log in %s)", err, logFile.Name())
	}
	cpu := time.Duration(usage.Utime.Nano() + usage.Stime.Nano())
	fmt.Fprintf(stdout, "steps/s          %.1f (%d steps in %v, including set-up)\n", float64(*steps)/elapsed.Seconds(), *steps, elapsed.Round(time.Millisecond))
	fmt.Fprintf(stdout, "server CPU/step  %.3f ms (user %v, system %v)\n", float64(cpu.Microseconds())/1000/float64(*steps),
		time.Duration(usage.Utime.Nano()).Round(time.Millisecond), time.Duration(usage.Stime.Nano()).Round(time.Millisecond))
	fmt.Fprintf(stdout, "server peak RSS  %.1f MB\n", float64(usage.Maxrss)/1024)
	return nil
}

// benchMatch is one match of a "massim serve" child process (launch "key")
// against instant-answering random agents run by this process.
type benchMatch struct {
	cmd    *exec.Cmd
	launch io.WriteCloser
	agents int
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// startBenchMatch starts the server with the config and extra flags, and
// the agents of every team, which connect while the server waits for ENTER.
func startBenchMatch(self, confPath string, extra []string, log io.Writer, teams []string, agents, port int) (*benchMatch, error) {
	args := append([]string{"serve", "-conf", confPath, "-log-format", "json", "-log-level", "error"}, extra...)
	m := &benchMatch{cmd: exec.Command(self, args...), agents: len(teams) * agents}
	m.cmd.Stdout, m.cmd.Stderr = log, log
	launch, err := m.cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	m.launch = launch
	if err := m.cmd.Start(); err != nil {
		return nil, fmt.Errorf("bench: start server: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	m.cancel = cancel
	for i, name := range teams {
		m.wg.Add(1)
		go func() {
			defer m.wg.Done()
			_ = team.Run(ctx, team.Config{Host: "127.0.0.1", Port: port, Team: name, Password: "1",
				Count: agents, Logger: zerolog.Nop()}, random.ForTeam(int64(i+1)))
		}()
	}
	return m, nil
}

// waitForAgents gives every agent time to connect and log in.
func (m *benchMatch) waitForAgents() {
	time.Sleep(time.Second + time.Duration(m.agents)*2*time.Millisecond)
}

// play presses ENTER and waits for the tournament to end; it returns the
// wall time from the launch and the server process's resource usage.
func (m *benchMatch) play() (time.Duration, *syscall.Rusage, error) {
	began := time.Now()
	if _, err := io.WriteString(m.launch, "\n"); err != nil {
		return 0, nil, fmt.Errorf("bench: launch: %w", err)
	}
	werr := m.cmd.Wait()
	elapsed := time.Since(began)
	m.stop()
	if werr != nil {
		return 0, nil, fmt.Errorf("bench: server failed: %w", werr)
	}
	usage, ok := m.cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0, nil, errors.New("bench: no resource usage on this platform")
	}
	return elapsed, usage, nil
}

// stop ends the agents (and the server if it still runs).
func (m *benchMatch) stop() {
	m.cancel()
	if m.cmd.ProcessState == nil {
		_ = m.cmd.Process.Kill()
		_ = m.cmd.Wait()
	}
	m.wg.Wait()
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("bench: find a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// benchConfig is a contest-like match of the requested size.
func benchConfig(teams []string, agents, size, steps, port int, dir string) []byte {
	teamsJSON := ""
	for i, t := range teams {
		if i > 0 {
			teamsJSON += ","
		}
		teamsJSON += strconv.Quote(t) + `:{"prefix":"agent","password":"1"}`
	}
	return fmt.Appendf(nil, `{
 "server": {"tournamentMode":"round-robin","teamsPerMatch":%d,"launch":"key","port":%d,"agentTimeout":4000,
            "resultPath":%q,"logLevel":"error","maxPacketLength":65536},
 "match": [{
  "steps": %d, "randomSeed": 17, "randomFail": 1, "entities": {"standard": %d}, "clusterBounds": [1,3],
  "roles": [
   {"name":"default","vision":5,"actions":["skip","move","rotate","adopt","detach","clear"],"speed":[1],"clear":{"chance":0.7,"maxDistance":1}},
   {"name":"worker","actions":["request","attach","connect","disconnect","submit"],"speed":[2,1,1,0]},
   {"name":"constructor","actions":["request","attach","connect","disconnect","submit"],"speed":[1]},
   {"name":"explorer","vision":7,"actions":["attach","survey"],"speed":[3,0]},
   {"name":"digger","speed":[1,0],"clear":{"chance":1,"maxDistance":5}}],
  "clearEnergyCost": 2, "deactivatedDuration": 10, "maxEnergy": 100, "refreshEnergy": 50, "stepRecharge": 1,
  "clearDamage": [32,16,8,4,2,1], "attachLimit": 10,
  "grid": {"width": %d, "height": %d, "instructions": [["cave",0.45,3,5,4]],
           "goals": {"number":7,"size":[1,3],"moveProbability":0.1}, "roleZones": {"number":5,"size":[3,5]}},
  "blockTypes": [3,3], "dispensers": [5,10],
  "tasks": {"size":[1,4],"concurrent":3,"iterations":[5,10],"maxDuration":[100,200]},
  "events": {"chance":15,"radius":[3,5],"warning":5,"create":[-3,1],"perimeter":2},
  "regulation": {"simultaneous":1,"chance":15,"subjects":[
   {"name":"Carry","announcement":[5,10],"duration":[5,10],"punishment":[10,10],"weight":10,"optional":{"quantity":[0,1]}},
   {"name":"Adopt","announcement":[40,50],"duration":[20,40],"punishment":[2,3],"weight":15,"optional":{"playing":50}}]}
 }],
 "teams": {%s}
}`, len(teams), port, filepath.Join(dir, "results"), steps, agents, size, size, teamsJSON)
}
