// Command hostile is a team command that attacks instead of playing, for
// the sandbox test of cmd/massim (docs/untrusted-teams.md, "Threat
// model"). It tries everything a stranger's code might try, printing one
// line per attempt, then leaves spinners running, and its agents log in
// and skip every step:
//
//	hostile: NAME: contained (what happened)
//	hostile: NAME: NOT CONTAINED (what happened)
//
// It is told what to look for by flags, as if it had guessed: the other
// team's password and dir, the config, the league folder, ports, pids.
// The memory attack runs once (a marker in its temporary folder, which
// lives as long as its sandbox): going over the limit ends the whole
// command, which is started again and carries on with the rest.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

type flags struct {
	otherPassword, otherTeam, otherPrefix string
	paths, ports, pids                    string
}

func main() {
	if len(os.Args) > 1 && strings.HasPrefix(os.Args[1], "--child=") {
		child(strings.TrimPrefix(os.Args[1], "--child="), os.Args[2:])
		return
	}
	var f flags
	flag.StringVar(&f.otherPassword, "other-password", "", "the other team's password (as if it had been stolen)")
	flag.StringVar(&f.otherTeam, "other-team", "B", "the other team")
	flag.StringVar(&f.otherPrefix, "other-prefix", "agent", "the other team's account prefix")
	flag.StringVar(&f.paths, "paths", "", "files and folders to read, comma-separated")
	flag.StringVar(&f.ports, "ports", "", "host:port to connect to, comma-separated")
	flag.StringVar(&f.pids, "pids", "", "processes to signal, comma-separated")
	spinOnly := flag.Bool("spin-only", false, "only spin (8 threads here and in 3 processes) and play: the CPU hog of the fairness benchmarks")
	flag.Parse()
	signal.Ignore(syscall.SIGHUP)
	if *spinOnly {
		attackCPU()
		playAgents()
		select {}
	}
	if once("memory") {
		attackMemory() // ends the whole command: it is started again
	}
	f.attackSecrets()
	f.attackLogin()
	f.attackFiles()
	f.attackNetwork()
	f.attackSignals()
	attackProcesses()
	attackDisk()
	attackFiles100k()
	attackDaemon()
	attackCPU()
	// Only now the agents log in: the match starts when they are in, with
	// the attacks done and the spinners spinning.
	playAgents()
	fmt.Println("hostile: done; spinning until stopped")
	select {}
}

func report(name string, contained bool, format string, args ...any) {
	verdict := "contained"
	if !contained {
		verdict = "NOT CONTAINED"
	}
	fmt.Printf("hostile: %s: %s (%s)\n", name, verdict, fmt.Sprintf(format, args...))
}

// once reports whether step has not run yet in this sandbox, and marks it.
func once(step string) bool {
	f, err := os.OpenFile(filepath.Join(os.TempDir(), "hostile-"+step), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return false
	}
	_ = f.Close()
	return true
}

// playAgents logs the team's agents in and skips every step.
func playAgents() {
	n, _ := strconv.Atoi(os.Getenv("MASSIM_AGENTS"))
	for i := 1; i <= n; i++ {
		user := os.Getenv("MASSIM_PREFIX") + os.Getenv("MASSIM_TEAM") + strconv.Itoa(i)
		go func() {
			for {
				agent(user, os.Getenv("MASSIM_PASSWORD"))
				time.Sleep(100 * time.Millisecond)
			}
		}()
	}
}

func agent(user, password string) {
	conn, err := net.Dial("tcp", net.JoinHostPort(os.Getenv("MASSIM_HOST"), os.Getenv("MASSIM_PORT")))
	if err != nil {
		return
	}
	defer conn.Close()
	send(conn, map[string]any{"type": "auth-request", "content": map[string]string{"user": user, "pw": password}})
	r := bufio.NewReader(conn)
	for {
		frame, err := r.ReadBytes(0)
		if err != nil {
			return
		}
		var msg struct {
			Type    string `json:"type"`
			Content struct {
				ID int `json:"id"`
			} `json:"content"`
		}
		if json.Unmarshal(frame[:len(frame)-1], &msg) == nil && msg.Type == "request-action" {
			send(conn, map[string]any{"type": "action", "content": map[string]any{"id": msg.Content.ID, "type": "skip", "p": []string{}}})
		}
	}
}

func send(conn net.Conn, msg any) {
	data, _ := json.Marshal(msg)
	_, _ = conn.Write(append(data, 0))
}

// attackSecrets looks for the other team's password in every process's
// command line and environment.
func (f flags) attackSecrets() {
	own := os.Getenv("MASSIM_PASSWORD")
	entries, _ := os.ReadDir("/proc")
	seen, found := 0, []string{}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		seen++
		if pid == os.Getpid() {
			continue // its own flags hold the stolen password
		}
		for _, file := range []string{"cmdline", "environ"} {
			data, err := os.ReadFile(filepath.Join("/proc", e.Name(), file))
			if err != nil {
				continue
			}
			for _, kv := range strings.Split(string(data), "\x00") {
				pw, ok := strings.CutPrefix(kv, "MASSIM_PASSWORD=")
				if ok && pw != own || f.otherPassword != "" && strings.Contains(kv, f.otherPassword) ||
					strings.Contains(kv, "MASSIM_ADMIN_TOKEN=") || strings.Contains(kv, "MASSIM_TEAM="+f.otherTeam) {
					found = append(found, e.Name()+"/"+file)
				}
			}
		}
	}
	report("read the other team's password from /proc (cmdline, environ)", len(found) == 0,
		"%d processes visible, all of its own; the other team's secrets in %v", seen, found)
}

// attackLogin logs in as the other team with its (stolen) password.
func (f flags) attackLogin() {
	user := f.otherPrefix + f.otherTeam + "1"
	conn, err := net.DialTimeout("tcp", net.JoinHostPort(os.Getenv("MASSIM_HOST"), os.Getenv("MASSIM_PORT")), 5*time.Second)
	if err != nil {
		report("log in as the other team", true, "no connection: %v", err)
		return
	}
	defer conn.Close()
	send(conn, map[string]any{"type": "auth-request", "content": map[string]string{"user": user, "pw": f.otherPassword}})
	_ = conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	frame, err := bufio.NewReader(conn).ReadBytes(0)
	answer := strings.TrimRight(string(frame), "\x00")
	report("log in as the other team", !strings.Contains(answer, `"ok"`), "%s with its password: %s %v", user, answer, err)
}

// attackFiles reads the config, the league folder, the other team's dir,
// the admin token.
func (f flags) attackFiles() {
	for _, p := range strings.Split(f.paths, ",") {
		if p == "" {
			continue
		}
		info, err := os.Stat(p)
		var got string
		switch {
		case err != nil:
		case info.IsDir():
			names, derr := os.ReadDir(p)
			err = derr
			if len(names) > 0 {
				got = fmt.Sprintf("lists %d entries", len(names))
			}
		default:
			data, rerr := os.ReadFile(p)
			err = rerr
			if len(data) > 0 {
				got = fmt.Sprintf("reads %d bytes", len(data))
			}
		}
		report("read "+p, got == "", "%s%v", got, err)
	}
}

// attackNetwork connects to ports of the machine: the monitor, the admin
// and ops ports, another local service, another address.
func (f flags) attackNetwork() {
	for _, addr := range strings.Split(f.ports, ",") {
		if addr == "" {
			continue
		}
		conn, err := net.DialTimeout("tcp", addr, 3*time.Second)
		if err == nil {
			_ = conn.Close()
		}
		report("connect to "+addr, err != nil, "%v", err)
	}
}

// attackSignals signals the server, the league and the other team's
// processes by their pids (of the machine), then every process it may.
func (f flags) attackSignals() {
	for _, s := range strings.Split(f.pids, ",") {
		pid, err := strconv.Atoi(s)
		if err != nil {
			continue
		}
		err = syscall.Kill(pid, syscall.SIGKILL)
		report("kill pid "+s, err != nil, "%v", err)
	}
	// kill(-1) reaches every process the caller may signal: in its PID
	// namespace only its own (SIGCONT changes nothing for them).
	err := syscall.Kill(-1, syscall.SIGCONT)
	report("signal every process (kill -1)", true, "%v; the test checks that the server, the league and the other team lived on", err)
}

// attackProcesses forks 2,000 processes (from a child, so that its own
// threads are not the ones that fail).
func attackProcesses() {
	out, err := exec.Command("/proc/self/exe", "--child=forks").CombinedOutput()
	text := strings.TrimSpace(string(out))
	n, _ := strconv.Atoi(strings.Fields(text + " 0")[0])
	report("fork 2000 processes", n < 2000, "%s %v", text, err)
}

// attackMemory allocates and touches 3 GiB.
func attackMemory() {
	fmt.Println("hostile: allocating 3 GiB (the whole command should be killed for memory and started again)")
	var chunks [][]byte
	for i := 0; i < 3*1024; i++ {
		c := make([]byte, 1<<20)
		for j := 0; j < len(c); j += 4096 {
			c[j] = 1
		}
		chunks = append(chunks, c)
	}
	report("allocate 3 GiB", false, "allocated %d MiB", len(chunks))
}

// attackDisk writes 1 GiB to its home, its temporary folder and its dir.
func attackDisk() {
	wd, _ := os.Getwd()
	for _, dir := range []string{os.Getenv("HOME"), os.TempDir(), wd} {
		p := filepath.Join(dir, "hostile-fill")
		written, err := fill(p, 1<<30)
		_ = os.Remove(p)
		report("write 1 GiB to "+dir, written < 1<<30, "wrote %d MiB: %v", written>>20, err)
	}
}

func fill(path string, n int64) (int64, error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	buf := make([]byte, 1<<20)
	var written int64
	for written < n {
		k, err := f.Write(buf)
		written += int64(k)
		if err != nil {
			return written, err
		}
	}
	return written, nil
}

// attackFiles100k opens 100,000 files.
func attackFiles100k() {
	var files []*os.File
	var err error
	for len(files) < 100000 {
		var f *os.File
		if f, err = os.Open("/dev/null"); err != nil {
			break
		}
		files = append(files, f)
	}
	report("open 100000 files", len(files) < 100000, "opened %d: %v", len(files), err)
	for _, f := range files {
		_ = f.Close()
	}
}

// attackDaemon leaves a daemon behind: a double fork and setsid.
func attackDaemon() {
	cmd := exec.Command("/proc/self/exe", "--child=daemonize")
	out, err := cmd.CombinedOutput()
	report("leave a daemon (double fork, setsid)", true, "daemon %s %v; the test checks that it does not outlive the match", strings.TrimSpace(string(out)), err)
}

// attackCPU spins 8 threads here and in 3 processes, until stopped.
func attackCPU() {
	for i := 0; i < 3; i++ {
		cmd := exec.Command("/proc/self/exe", "--child=spin")
		if err := cmd.Start(); err != nil {
			report("spin 8 threads and 3 processes", true, "process %d: %v", i, err)
		}
	}
	go spin(8)
	report("spin 8 threads and 3 processes", true, "spinning; the test checks that the other team answers every step in time")
}

func spin(threads int) {
	runtime.GOMAXPROCS(threads)
	var wg sync.WaitGroup
	for i := 0; i < threads; i++ {
		wg.Add(1)
		go func() {
			runtime.LockOSThread()
			x := 0
			for {
				x++
			}
		}()
	}
	wg.Wait()
}

// child runs one of the helper processes.
func child(kind string, args []string) {
	switch kind {
	case "forks":
		var procs []*os.Process
		var err error
		for len(procs) < 2000 {
			var p *os.Process
			p, err = os.StartProcess("/bin/sleep", []string{"sleep", "600"}, &os.ProcAttr{})
			if err != nil {
				break
			}
			procs = append(procs, p)
		}
		fmt.Printf("%d processes, then: %v\n", len(procs), err)
		for _, p := range procs {
			_ = p.Kill()
			_, _ = p.Wait()
		}
	case "daemonize":
		cmd := exec.Command("/proc/self/exe", "--child=daemon")
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		if err := cmd.Start(); err != nil {
			fmt.Println(err)
			os.Exit(1)
		}
		fmt.Println(cmd.Process.Pid)
	case "daemon":
		signal.Ignore(syscall.SIGTERM, syscall.SIGHUP)
		time.Sleep(time.Hour)
	case "spin":
		spin(8)
	default:
		fmt.Println(errors.New("unknown child " + kind))
		os.Exit(2)
	}
}
