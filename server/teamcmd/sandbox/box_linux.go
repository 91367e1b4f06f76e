package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// CloneFlags are the namespaces a sandbox's first process (the supervisor)
// is started in: PID, mount, network, IPC and UTS for ModeNamespaces; a
// network namespace only for ModePodman (podman makes the container's
// other namespaces, and joins this network namespace with --network host).
func CloneFlags(mode string) uintptr {
	if mode == ModePodman {
		return syscall.CLONE_NEWNET
	}
	return syscall.CLONE_NEWPID | syscall.CLONE_NEWNS | syscall.CLONE_NEWNET | syscall.CLONE_NEWIPC | syscall.CLONE_NEWUTS
}

// Box is a sandbox as its first process (the supervisor) holds it.
type Box struct {
	spec Spec
	cg   Cgroup
	ooms int // OOM kills seen so far
}

// Open builds the sandbox of spec around the calling process, which was
// started with CloneFlags(spec.Mode) and holds the lease of spec.UID: the
// team's cgroup with its limits, and, for ModeNamespaces, the team's view
// of the file system (Enter); for ModePodman, loopback and no container of
// the name left by a team that is gone.
func Open(spec Spec) (*Box, error) {
	cg, err := NewCgroup(spec.Cgroup, spec.Limits)
	if err != nil {
		return nil, err
	}
	b := &Box{spec: spec, cg: cg}
	switch spec.Mode {
	case ModeNamespaces:
		err = Enter(spec)
	case ModePodman:
		if err = loopbackUp(); err == nil {
			b.removeContainer()
		}
	default:
		err = fmt.Errorf("sandbox: unknown mode %q", spec.Mode)
	}
	if err != nil {
		_ = cg.Remove()
		return nil, err
	}
	return b, nil
}

// Start runs the command once: in ModeNamespaces path with argv as the
// team through the trampoline, in ModePodman a container of the image with
// argv as its arguments. files are its standard input, output and error;
// sys its process attributes (its own process group, a parent-death
// signal).
func (b *Box) Start(path string, argv, env []string, dir string, files []*os.File, sys *syscall.SysProcAttr) (*os.Process, error) {
	if b.spec.Mode == ModePodman {
		b.removeContainer()
		args := podmanArgs(b.spec, argv, env)
		return os.StartProcess(b.spec.Engine, append([]string{b.spec.Engine}, args...),
			&os.ProcAttr{Dir: "/", Env: podmanEnv(env), Files: files, Sys: sys})
	}
	if dir == "" {
		dir = Home
	}
	return startTrampoline(b.cg, execRequest{Path: path, Argv: argv, Env: env, Dir: dir, UID: b.spec.UID,
		OpenFiles: b.spec.Limits.OpenFiles}, files, sys)
}

// OutOfMemory reports whether the kernel has killed a process of the team
// for memory since it last said so.
func (b *Box) OutOfMemory() bool {
	n, err := b.cg.OOMKills()
	if err != nil || n <= b.ooms {
		return false
	}
	b.ooms = n
	return true
}

// KillAll kills every process of the team: in ModeNamespaces everything of
// the PID namespace but its first process, in ModePodman the container.
func (b *Box) KillAll() {
	if b.spec.Mode == ModePodman {
		b.removeContainer()
		return
	}
	_ = syscall.Kill(-1, syscall.SIGKILL)
}

// Signal sends sig to every process of the namespace but the first
// (ModeNamespaces; nothing for ModePodman, whose container gets the signal
// through podman).
func (b *Box) Signal(sig syscall.Signal) {
	if b.spec.Mode == ModeNamespaces {
		_ = syscall.Kill(-1, sig)
	}
}

// AfterRun cleans up after one run of the command: the container of a
// podman run, which outlives a killed podman.
func (b *Box) AfterRun() {
	if b.spec.Mode == ModePodman {
		b.removeContainer()
	}
}

// Close removes the team's cgroup (killing what is left in it), for
// ModePodman also the container's cgroups in the other hierarchies.
func (b *Box) Close() error {
	b.AfterRun()
	err := b.cg.Remove()
	if b.spec.Mode == ModePodman {
		err = errors.Join(err, removeEverywhere(b.spec.Cgroup))
	}
	return err
}

// removeContainer removes the team's container, running or not.
func (b *Box) removeContainer() {
	cmd := exec.Command(b.spec.Engine, "rm", "--force", "--ignore", "--time", "0", b.spec.Container)
	cmd.Env = podmanEnv(nil)
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		return
	}
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(time.Minute):
		_ = cmd.Process.Kill()
		<-done
	}
}

// Remove removes the cgroup (and container) of a team whose supervisor
// has gone, when it could not (it was killed). It takes the user id's
// lease first: a team that holds it now has made its cgroup anew, and
// what was left was cleared then.
func Remove(spec Spec) error {
	_, lease, err := LeaseUID(spec.UID, spec.UID)
	if err != nil {
		return nil
	}
	defer lease.Close()
	cg, err := OpenCgroup(spec.Cgroup)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if spec.Mode == ModePodman {
		(&Box{spec: spec}).removeContainer()
		return errors.Join(cg.Remove(), removeEverywhere(spec.Cgroup))
	}
	return cg.Remove()
}

// CPU is the CPU time the team of spec has used so far (its cgroup's).
func CPU(spec Spec) (time.Duration, error) {
	cg, err := OpenCgroup(spec.Cgroup)
	if err != nil {
		return 0, err
	}
	defer func() {
		if c, ok := cg.(interface{ close() }); ok {
			c.close()
		}
	}()
	return cg.CPU()
}
