package sandbox

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"time"
)

// cfsPeriod is the period of the CPU quota (v1 cpu.cfs_period_us, v2 the
// second number of cpu.max): the kernel's default, 100 ms.
const cfsPeriod = 100000

// v1 is a team's cgroup in the v1 hierarchies of cpu, cpuacct, memory and
// pids (one folder in each; one for two controllers mounted together).
type v1 struct {
	dirs []*cgdir          // one per hierarchy
	of   map[string]*cgdir // controller -> its folder
}

func newV1(mounts map[string]string, name string) (*v1, error) { return v1Dirs(mounts, name, true) }

func openV1(mounts map[string]string, name string) (*v1, error) { return v1Dirs(mounts, name, false) }

func v1Dirs(mounts map[string]string, name string, create bool) (*v1, error) {
	cg := &v1{of: map[string]*cgdir{}}
	byMount := map[string]*cgdir{}
	for _, c := range v1Controllers {
		if d, ok := byMount[mounts[c]]; ok {
			cg.of[c] = d
			continue
		}
		d, err := openCgdir(mounts[c], name, create)
		if err != nil {
			if create {
				_ = cg.Remove()
			} else {
				cg.close()
			}
			return nil, err
		}
		byMount[mounts[c]] = d
		cg.of[c] = d
		cg.dirs = append(cg.dirs, d)
	}
	return cg, nil
}

func (cg *v1) Version() int { return 1 }

func (cg *v1) Apply(l Limits) error {
	cpu, mem := cg.of["cpu"], cg.of["memory"]
	for _, w := range []struct {
		d           *cgdir
		file, value string
		optional    bool
	}{
		{cpu, "cpu.cfs_period_us", strconv.Itoa(cfsPeriod), false},
		{cpu, "cpu.cfs_quota_us", strconv.Itoa(quota(l.CPUs)), false},
		{cpu, "cpu.shares", strconv.Itoa(max(2, int(1024*l.CPUs))), false},
		{mem, "memory.limit_in_bytes", strconv.FormatInt(l.Memory, 10), false},
		// No swap either (absent where the kernel does not account swap).
		{mem, "memory.memsw.limit_in_bytes", strconv.FormatInt(l.Memory, 10), true},
		{cg.of["pids"], "pids.max", strconv.Itoa(l.Processes), false},
	} {
		if err := w.d.write(w.file, w.value); err != nil && !(w.optional && errors.Is(err, os.ErrNotExist)) {
			return err
		}
	}
	return nil
}

// quota is the CPU time per cfsPeriod of cpus CPUs, in microseconds (at
// least the kernel's minimum, 1 ms).
func quota(cpus float64) int { return max(1000, int(cpus*cfsPeriod)) }

func (cg *v1) Attach(pid int) error {
	for _, d := range cg.dirs {
		if err := d.write("cgroup.procs", strconv.Itoa(pid)); err != nil {
			return err
		}
	}
	return nil
}

func (cg *v1) OOMKills() (int, error) {
	n, err := cg.of["memory"].keyed("memory.oom_control", "oom_kill")
	return int(n), err
}

func (cg *v1) CPU() (time.Duration, error) {
	data, err := cg.of["cpuacct"].read("cpuacct.usage")
	if err != nil {
		return 0, err
	}
	ns, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
	return time.Duration(ns), err
}

func (cg *v1) Procs() ([]int, error) { return cg.of["memory"].procs() }

func (cg *v1) Remove() error {
	var errs []error
	for _, d := range cg.dirs {
		errs = append(errs, d.remove())
	}
	cg.dirs = nil
	return errors.Join(errs...)
}

func (cg *v1) close() {
	for _, d := range cg.dirs {
		d.close()
	}
}
