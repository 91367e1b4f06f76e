package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// execRequest is what the supervisor tells the trampoline (on its
// descriptor 3): the program to run, as whom, with what limits.
type execRequest struct {
	Path      string   `json:"path"`
	Argv      []string `json:"argv"`
	Env       []string `json:"env"`
	Dir       string   `json:"dir"`
	UID       int      `json:"uid"`
	OpenFiles int      `json:"openFiles"`
}

// RunExec is the trampoline's main (the binary run with ExecArg, already in
// the team's cgroup): it takes the request from descriptor 3, bounds open
// files and core dumps, drops every privilege — no supplementary groups,
// the team's group and user, no new privileges through set-user-id
// programs or file capabilities — enters the command's folder as the team
// and runs the program. What fails is written to descriptor 4 (closed by a
// successful exec) and ends the trampoline with status 127.
func RunExec() {
	// The parent-death signal and no_new_privs belong to the thread that
	// sets them, which must be the one that runs the program.
	runtime.LockOSThread()
	report := os.NewFile(4, "exec errors")
	syscall.CloseOnExec(4)
	fail := func(err error) {
		_, _ = io.WriteString(report, err.Error())
		os.Exit(127)
	}
	var req execRequest
	in := os.NewFile(3, "exec request")
	if err := json.NewDecoder(in).Decode(&req); err != nil {
		fail(fmt.Errorf("read the request: %w", err))
	}
	_ = in.Close()
	for _, l := range []struct {
		res int
		n   uint64
	}{{unix.RLIMIT_NOFILE, uint64(req.OpenFiles)}, {unix.RLIMIT_CORE, 0}} {
		if err := unix.Setrlimit(l.res, &unix.Rlimit{Cur: l.n, Max: l.n}); err != nil {
			fail(fmt.Errorf("limit %d: %w", l.res, err))
		}
	}
	// Go's Setgroups, Setresgid and Setresuid change every thread.
	if err := syscall.Setgroups(nil); err != nil {
		fail(fmt.Errorf("drop the groups: %w", err))
	}
	if err := syscall.Setresgid(req.UID, req.UID, req.UID); err != nil {
		fail(fmt.Errorf("become group %d: %w", req.UID, err))
	}
	if err := syscall.Setresuid(req.UID, req.UID, req.UID); err != nil {
		fail(fmt.Errorf("become user %d: %w", req.UID, err))
	}
	// A change of user clears the parent-death signal: set it again.
	if err := unix.Prctl(unix.PR_SET_PDEATHSIG, uintptr(syscall.SIGKILL), 0, 0, 0); err != nil {
		fail(fmt.Errorf("parent-death signal: %w", err))
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		fail(fmt.Errorf("no new privileges: %w", err))
	}
	if err := os.Chdir(req.Dir); err != nil {
		fail(fmt.Errorf("%w (the team runs as user %d: its dir must be readable by others, chmod -R o+rX)", err, req.UID))
	}
	err := syscall.Exec(req.Path, req.Argv, req.Env)
	if errors.Is(err, syscall.EACCES) {
		err = fmt.Errorf("%w (the team runs as user %d: its program must be readable and executable by others)", err, req.UID)
	}
	fail(fmt.Errorf("exec %s: %w", req.Path, err))
}

// startTrampoline starts the trampoline, moves it into the cgroup, sends
// the request and waits until the program runs (the error pipe closes on
// exec) or the trampoline has failed.
func startTrampoline(cg Cgroup, req execRequest, files []*os.File, sys *syscall.SysProcAttr) (*os.Process, error) {
	reqR, reqW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	defer reqW.Close()
	errR, errW, err := os.Pipe()
	if err != nil {
		_ = reqR.Close()
		return nil, err
	}
	defer errR.Close()
	p, err := os.StartProcess("/proc/self/exe", []string{"massim-team-exec", ExecArg},
		&os.ProcAttr{Dir: "/", Env: []string{}, Files: append(files[:3:3], reqR, errW), Sys: sys})
	_ = reqR.Close()
	_ = errW.Close()
	if err != nil {
		return nil, err
	}
	fail := func(err error) (*os.Process, error) {
		_ = p.Kill()
		_, _ = p.Wait()
		return nil, err
	}
	if err := cg.Attach(p.Pid); err != nil {
		return fail(err)
	}
	if err := json.NewEncoder(reqW).Encode(req); err != nil {
		return fail(fmt.Errorf("sandbox: send the request: %w", err))
	}
	_ = reqW.Close()
	msg, _ := io.ReadAll(errR)
	if len(msg) > 0 {
		return fail(errors.New(strings.TrimSpace(string(msg))))
	}
	return p, nil
}
