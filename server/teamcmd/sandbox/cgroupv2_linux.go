package sandbox

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// v2 is a team's cgroup in the unified hierarchy.
type v2 struct{ d *cgdir }

// newV2 makes root/massim/name with the controllers cpu, memory and pids
// enabled for it: in the root's cgroup.subtree_control (the root may hold
// processes) and in massim's (which never does).
func newV2(root, name string) (*v2, error) {
	enable := "+" + strings.Join(v2Controllers, " +")
	rootDir, err := os.Open(root)
	if err != nil {
		return nil, fmt.Errorf("sandbox: open the cgroup2 hierarchy: %w", err)
	}
	defer rootDir.Close()
	if !enabled(root, "") {
		if err := writeAt(rootDir, "cgroup.subtree_control", enable); err != nil {
			return nil, fmt.Errorf("sandbox: enable %s in %s/cgroup.subtree_control: %w", enable, root, err)
		}
	}
	d, err := openCgdir(root, name, true)
	if err != nil {
		return nil, err
	}
	if !enabled(root, Parent) {
		if err := writeAt(d.parent, "cgroup.subtree_control", enable); err != nil {
			_ = d.remove()
			return nil, fmt.Errorf("sandbox: enable %s in %s/cgroup.subtree_control: %w", enable, d.parent.Name(), err)
		}
	}
	return &v2{d: d}, nil
}

// enabled reports whether the v2 controllers are enabled below root/dir.
func enabled(root, dir string) bool {
	data, err := os.ReadFile(root + "/" + dir + "/cgroup.subtree_control")
	if err != nil {
		return false
	}
	have := strings.Fields(string(data))
	for _, c := range v2Controllers {
		if !strings.Contains(" "+strings.Join(have, " ")+" ", " "+c+" ") {
			return false
		}
	}
	return true
}

func openV2(root, name string) (*v2, error) {
	d, err := openCgdir(root, name, false)
	if err != nil {
		return nil, err
	}
	return &v2{d: d}, nil
}

func (cg *v2) Version() int { return 2 }

func (cg *v2) Apply(l Limits) error {
	for _, w := range []struct {
		file, value string
		optional    bool
	}{
		{"cpu.max", strconv.Itoa(quota(l.CPUs)) + " " + strconv.Itoa(cfsPeriod), false},
		{"cpu.weight", strconv.Itoa(min(10000, max(1, int(100*l.CPUs)))), false},
		{"memory.max", strconv.FormatInt(l.Memory, 10), false},
		{"memory.swap.max", "0", true}, // absent without swap accounting
		{"pids.max", strconv.Itoa(l.Processes), false},
	} {
		if err := cg.d.write(w.file, w.value); err != nil && !(w.optional && errors.Is(err, os.ErrNotExist)) {
			return err
		}
	}
	return nil
}

func (cg *v2) Attach(pid int) error { return cg.d.write("cgroup.procs", strconv.Itoa(pid)) }

func (cg *v2) OOMKills() (int, error) {
	n, err := cg.d.keyed("memory.events", "oom_kill")
	return int(n), err
}

func (cg *v2) CPU() (time.Duration, error) {
	us, err := cg.d.keyed("cpu.stat", "usage_usec")
	return time.Duration(us) * time.Microsecond, err
}

func (cg *v2) Procs() ([]int, error) { return cg.d.procs() }

func (cg *v2) Remove() error { return cg.d.remove() }
func (cg *v2) close()        { cg.d.close() }
