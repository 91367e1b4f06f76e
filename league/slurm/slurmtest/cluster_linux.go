//go:build linux

package slurmtest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/massim-go/massim/loadtest"
)

// StartTimeout bounds how long Start waits for the node to become idle.
const StartTimeout = 90 * time.Second

// Cluster is a running one-node Slurm cluster of one test.
type Cluster struct {
	// Dir holds everything of the cluster: slurm.conf, the munge key and
	// socket, the controller's state, slurmd's spool and the logs.
	Dir string
	// Conf is the path of the cluster's slurm.conf; Env puts it in SLURM_CONF.
	Conf string
	// Node is the name of the one node (this machine's short host name).
	Node string
	// Started is how long Start took, from the munge key to an idle node.
	Started time.Duration

	t       testing.TB
	daemons []*daemon
}

// daemon is one process Start started, with its own output file.
type daemon struct {
	name string
	cmd  *exec.Cmd
	out  string        // its stdout and stderr
	log  string        // its own log file, if it keeps one
	done chan struct{} // closed when it has exited
	err  error         // its exit, valid once done is closed
}

// Start starts munged, slurmctld and slurmd in a fresh temporary folder and
// waits until the node is idle. conf are lines added to the end of its
// slurm.conf ("MaxArraySize=5" …). Every daemon is stopped by its pid when
// the test ends. A cluster that cannot start fails the test with the reason.
func Start(t testing.TB, conf ...string) *Cluster {
	t.Helper()
	began := time.Now()
	if os.Geteuid() != 0 {
		t.Fatalf("slurmtest: the one-node Slurm runs its daemons as root (SlurmUser=root); this test runs as uid %d", os.Geteuid())
	}
	for _, bin := range []string{"mungekey", "munged", "slurmctld", "slurmd", "sbatch", "squeue", "sinfo", "scancel", "scontrol"} {
		if _, err := exec.LookPath(bin); err != nil {
			t.Fatalf("slurmtest: %s not found (scripts/install/slurm.sh installs slurm-wlm and munge): %v", bin, err)
		}
	}
	// Not t.TempDir: the munge socket's path must stay short (108 bytes), and
	// munged wants every folder above its socket searchable by all.
	dir, err := os.MkdirTemp("", "slurm")
	if err != nil {
		t.Fatalf("slurmtest: %v", err)
	}
	c := &Cluster{Dir: dir, Conf: filepath.Join(dir, "slurm.conf"), t: t}
	t.Cleanup(c.stop)
	for _, sub := range []string{"munge", "state", "spool", "log"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatalf("slurmtest: %v", err)
		}
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatalf("slurmtest: %v", err)
	}
	host, err := os.Hostname()
	if err != nil {
		t.Fatalf("slurmtest: host name: %v", err)
	}
	c.Node, _, _ = strings.Cut(host, ".")

	key := filepath.Join(dir, "munge", "munge.key")
	if out, err := exec.Command("mungekey", "--create", "--keyfile", key).CombinedOutput(); err != nil {
		t.Fatalf("slurmtest: mungekey: %v: %s", err, out)
	}
	socket := filepath.Join(dir, "munge", "munge.socket")
	c.start("munged", filepath.Join(dir, "munge", "munged.log"), "munged", "--foreground", "--force",
		"--socket="+socket, "--key-file="+key,
		"--pid-file="+filepath.Join(dir, "munge", "munged.pid"),
		"--log-file="+filepath.Join(dir, "munge", "munged.log"),
		"--seed-file="+filepath.Join(dir, "munge", "munged.seed"))
	c.waitFor("munged to accept on its socket", func() bool {
		return exec.Command("munge", "--socket="+socket, "--no-input").Run() == nil
	})

	node, err := nodeHardware()
	if err != nil {
		t.Fatalf("slurmtest: %v", err)
	}
	text := config(dir, c.Node, node, socket, freePort(t), freePort(t))
	for _, line := range conf {
		text += line + "\n"
	}
	if err := os.WriteFile(c.Conf, []byte(text), 0o644); err != nil {
		t.Fatalf("slurmtest: %v", err)
	}
	c.start("slurmctld", filepath.Join(dir, "log", "slurmctld.log"), "slurmctld", "-D", "-i")
	c.start("slurmd", filepath.Join(dir, "log", "slurmd.log"), "slurmd", "-D", "-N", c.Node)
	c.waitFor("node "+c.Node+" to be idle", func() bool {
		out, err := c.Command("sinfo", "--noheader", "--Node", "--format=%T").Output()
		return err == nil && strings.TrimSpace(string(out)) == "idle"
	})
	c.Started = time.Since(began)
	t.Logf("slurmtest: one-node Slurm %s up in %v (SLURM_CONF=%s)", c.Node, c.Started.Round(time.Millisecond), c.Conf)
	return c
}

// nodeHardware is this machine as slurmd sees it ("slurmd -C"): CPUs,
// boards, sockets, cores, threads and memory, ready for a NodeName line.
func nodeHardware() (string, error) {
	out, err := exec.Command("slurmd", "-C").Output()
	if err != nil {
		return "", fmt.Errorf("slurmd -C: %w", err)
	}
	first, _, _ := strings.Cut(string(out), "\n")
	var keep []string
	for _, field := range strings.Fields(first) {
		k, _, _ := strings.Cut(field, "=")
		switch k {
		case "CPUs", "Boards", "SocketsPerBoard", "CoresPerSocket", "ThreadsPerCore", "RealMemory":
			keep = append(keep, field)
		}
	}
	if len(keep) == 0 {
		return "", fmt.Errorf("slurmd -C printed no hardware: %q", out)
	}
	return strings.Join(keep, " "), nil
}

// config is the cluster's slurm.conf: no cgroups (proctrack/linuxproc,
// task/none, no cgroup.conf), no accounting, everything in dir.
func config(dir, node, hardware, mungeSocket string, ctldPort, slurmdPort int) string {
	var b strings.Builder
	line := func(format string, a ...any) { fmt.Fprintf(&b, format+"\n", a...) }
	line("# written by league/slurm/slurmtest for one test")
	line("ClusterName=massimtest")
	line("SlurmctldHost=%s(127.0.0.1)", node)
	line("SlurmctldPort=%d", ctldPort)
	line("SlurmdPort=%d", slurmdPort)
	line("SlurmUser=root")
	line("SlurmdUser=root")
	line("AuthType=auth/munge")
	line("CredType=cred/munge")
	line("AuthInfo=socket=%s", mungeSocket)
	line("ProctrackType=proctrack/linuxproc")
	line("TaskPlugin=task/none")
	line("JobAcctGatherType=jobacct_gather/none")
	line("AccountingStorageType=accounting_storage/none")
	line("MpiDefault=none")
	line("MailProg=/bin/true")
	line("SchedulerType=sched/backfill")
	line("SelectType=select/cons_tres")
	line("SelectTypeParameters=CR_Core")
	line("ReturnToService=2")
	line("KillWait=10") // seconds from scancel's SIGTERM to its SIGKILL
	line("StateSaveLocation=%s", filepath.Join(dir, "state"))
	line("SlurmdSpoolDir=%s", filepath.Join(dir, "spool"))
	line("SlurmctldPidFile=%s", filepath.Join(dir, "slurmctld.pid"))
	line("SlurmdPidFile=%s", filepath.Join(dir, "slurmd.pid"))
	line("SlurmctldLogFile=%s", filepath.Join(dir, "log", "slurmctld.log"))
	line("SlurmdLogFile=%s", filepath.Join(dir, "log", "slurmd.log"))
	line("SlurmctldDebug=info")
	line("SlurmdDebug=info")
	line("NodeName=%s NodeAddr=127.0.0.1 %s State=UNKNOWN", node, hardware)
	line("PartitionName=short Nodes=%s Default=YES MaxTime=INFINITE State=UP", node) // named as in docs/leagues.md
	return b.String()
}

// freePort is loadtest.FreePort: slurmctld's and slurmd's ports are never
// the same one, nor one another test of this process holds.
func freePort(t testing.TB) int {
	port, err := loadtest.FreePort()
	if err != nil {
		t.Fatalf("slurmtest: a free port: %v", err)
	}
	return port
}

// Env is this process's environment with SLURM_CONF naming the cluster's
// slurm.conf: for sbatch, squeue and the like, and for the processes of a
// test that call them.
func (c *Cluster) Env() []string {
	env := make([]string, 0, len(os.Environ())+1)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "SLURM_CONF=") {
			env = append(env, kv)
		}
	}
	return append(env, "SLURM_CONF="+c.Conf)
}

// Command is a command (sbatch, squeue, massim …) that talks to this cluster.
func (c *Cluster) Command(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Env = c.Env()
	return cmd
}

// Run runs a Slurm command against the cluster and returns its standard
// output; it fails the test if the command fails.
func (c *Cluster) Run(name string, args ...string) string {
	c.t.Helper()
	cmd := c.Command(name, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		c.t.Fatalf("slurmtest: %s %s: %v: %s%s", name, strings.Join(args, " "), err, out, stderr.Bytes())
	}
	return string(out)
}

// start starts one daemon in the foreground as a child of the test.
func (c *Cluster) start(name, logFile, bin string, args ...string) {
	c.t.Helper()
	d := &daemon{name: name, log: logFile, out: filepath.Join(c.Dir, "log", name+".out"), done: make(chan struct{})}
	out, err := os.Create(d.out)
	if err != nil {
		c.t.Fatalf("slurmtest: %v", err)
	}
	defer out.Close()
	d.cmd = c.Command(bin, args...)
	d.cmd.Stdout, d.cmd.Stderr = out, out
	// Its own process group, so that a Ctrl-C of the test run reaches it only
	// through stop; a parent-death signal should the test be killed.
	d.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
	if err := d.cmd.Start(); err != nil {
		c.t.Fatalf("slurmtest: start %s: %v", name, err)
	}
	c.daemons = append(c.daemons, d)
	go func() {
		d.err = d.cmd.Wait()
		close(d.done)
	}()
}

// waitFor polls cond until it holds; it fails the test when a daemon exits
// meanwhile or when StartTimeout passes, with the daemons' logs.
func (c *Cluster) waitFor(what string, cond func() bool) {
	c.t.Helper()
	deadline := time.Now().Add(StartTimeout)
	for !cond() {
		for _, d := range c.daemons {
			select {
			case <-d.done:
				c.t.Fatalf("slurmtest: waiting for %s: %s exited: %v\n%s", what, d.name, d.err, c.Logs())
			default:
			}
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("slurmtest: %s: not after %v\n%s", what, StartTimeout, c.Logs())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// WaitFor polls cond every 200 ms until it holds and fails the test after
// timeout (with what and the daemons' logs).
func (c *Cluster) WaitFor(what string, timeout time.Duration, cond func() bool) {
	c.t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			c.t.Fatalf("slurmtest: %s: not after %v\n%s", what, timeout, c.Logs())
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// Logs is the last part of every daemon's output and log file, for a
// failure message.
func (c *Cluster) Logs() string {
	var b strings.Builder
	for _, d := range c.daemons {
		for _, f := range []string{d.out, d.log} {
			data, err := os.ReadFile(f)
			if err != nil {
				fmt.Fprintf(&b, "--- %s: %v\n", f, err)
				continue
			}
			const tail = 4000
			if len(data) > tail {
				data = data[len(data)-tail:]
			}
			fmt.Fprintf(&b, "--- %s (end)\n%s\n", f, data)
		}
	}
	return b.String()
}

// stop cancels every job, stops the daemons by pid (SIGTERM, SIGKILL after
// 15 s), then checks that no process of the cluster is left.
func (c *Cluster) stop() {
	t := c.t
	if t.Failed() && len(c.daemons) > 0 {
		t.Logf("slurmtest: logs of the failed cluster:\n%s", c.Logs())
	}
	if c.running("slurmctld") {
		if u, err := user.Current(); err == nil {
			if out, err := c.Command("scancel", "--user="+u.Username).CombinedOutput(); err != nil {
				t.Errorf("slurmtest: scancel at the end: %v: %s", err, out)
			}
		}
		deadline := time.Now().Add(30 * time.Second)
		for time.Now().Before(deadline) {
			out, err := c.Command("squeue", "--noheader").Output()
			if err != nil || strings.TrimSpace(string(out)) == "" {
				break
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
	for i := len(c.daemons) - 1; i >= 0; i-- {
		d := c.daemons[i]
		_ = d.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-d.done:
		case <-time.After(15 * time.Second):
			t.Errorf("slurmtest: %s (pid %d) ignored SIGTERM for 15 s; killing it", d.name, d.cmd.Process.Pid)
			_ = d.cmd.Process.Kill()
			<-d.done
		}
	}
	// slurmstepd daemonizes, so a job's processes are no children of ours:
	// they are known by the SLURM_CONF in their environment.
	var left []int
	deadline := time.Now().Add(10 * time.Second)
	for {
		left = c.Processes()
		if len(left) == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	for _, pid := range left {
		t.Errorf("slurmtest: process %d (%s) of the cluster outlived its daemons; killing it", pid, cmdline(pid))
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
	if !t.Failed() {
		if err := os.RemoveAll(c.Dir); err != nil {
			t.Errorf("slurmtest: %v", err)
		}
	} else {
		t.Logf("slurmtest: kept %s", c.Dir)
	}
}

func (c *Cluster) running(name string) bool {
	for _, d := range c.daemons {
		if d.name == name {
			select {
			case <-d.done:
				return false
			default:
				return true
			}
		}
	}
	return false
}

// Processes lists the pids of every process whose environment names this
// cluster's slurm.conf: the daemons, slurmstepd, the jobs and whatever the
// jobs started (team commands included) unless they cleared their
// environment.
func (c *Cluster) Processes() []int { return c.ProcessesWith() }

// ProcessesWith lists the processes of the cluster (see Processes) whose
// environment also holds every one of vars ("SLURM_ARRAY_TASK_ID=1" …):
// those of one job or array task.
func (c *Cluster) ProcessesWith(vars ...string) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		c.t.Errorf("slurmtest: %v", err)
		return nil
	}
	marks := [][]byte{[]byte("\x00SLURM_CONF=" + c.Conf + "\x00")}
	for _, v := range vars {
		marks = append(marks, []byte("\x00"+v+"\x00"))
	}
	var pids []int
	for _, e := range entries {
		var pid int
		if _, err := fmt.Sscan(e.Name(), &pid); err != nil || pid == os.Getpid() {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err != nil || len(env) == 0 {
			continue // gone, a zombie, or not ours to read
		}
		env = append(append([]byte{0}, env...), 0) // every variable between two 0 bytes
		if !slices.ContainsFunc(marks, func(m []byte) bool { return !bytes.Contains(env, m) }) && !zombie(pid) {
			pids = append(pids, pid)
		}
	}
	return pids
}

func zombie(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	_, after, ok := bytes.Cut(stat, []byte(") "))
	return !ok || len(after) == 0 || after[0] == 'Z' || after[0] == 'X'
}

func cmdline(pid int) string {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil {
		return err.Error()
	}
	return strings.TrimSpace(string(bytes.ReplaceAll(data, []byte{0}, []byte{' '})))
}
