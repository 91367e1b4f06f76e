package sandbox

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Parent is the cgroup under which every team's cgroup is made, at the
// root of each hierarchy (as container engines do): the teams of all the
// servers of a machine are siblings there, with equal weights.
const Parent = "massim"

// Cgroup is one team's cgroup in v1 (a folder in each controller's
// hierarchy) or v2 (one folder).
type Cgroup interface {
	// Version is 1 or 2.
	Version() int
	// Apply writes the limits.
	Apply(Limits) error
	// Attach moves a process (by its pid in the caller's PID namespace) in.
	Attach(pid int) error
	// OOMKills counts the processes the kernel killed for memory so far.
	OOMKills() (int, error)
	// CPU is the CPU time the team has used so far.
	CPU() (time.Duration, error)
	// Procs lists the processes in it (pids in the caller's namespace).
	Procs() ([]int, error)
	// Remove kills what is left in it and removes it, then the massim
	// parent when no other team has a cgroup there.
	Remove() error
}

// hierarchies are the cgroup file systems of the machine: the v2 mount
// and the v1 mount of each controller.
type hierarchies struct {
	v2  string            // "" without a cgroup2 mount
	v1  map[string]string // controller -> mount point
	all []string          // every cgroup mount (v1 of any controller, v2)
}

// v1Controllers are the v1 controllers a team's cgroup uses: cpu (share
// and quota), cpuacct (CPU time), memory and pids.
var v1Controllers = []string{"cpu", "cpuacct", "memory", "pids"}

// v2Controllers are the v2 controllers a team's cgroup needs.
var v2Controllers = []string{"cpu", "memory", "pids"}

// findHierarchies reads the cgroup mounts of /proc/self/mountinfo.
func findHierarchies() (hierarchies, error) {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return hierarchies{}, fmt.Errorf("sandbox: read the mounts: %w", err)
	}
	defer f.Close()
	h := hierarchies{v1: map[string]string{}}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// id parent major:minor root mountpoint options... - fstype source superoptions
		pre, post, ok := strings.Cut(sc.Text(), " - ")
		fields, after := strings.Fields(pre), strings.Fields(post)
		if !ok || len(fields) < 5 || len(after) < 3 || fields[3] != "/" {
			continue
		}
		if after[0] == "cgroup" || after[0] == "cgroup2" {
			h.all = append(h.all, fields[4])
		}
		switch after[0] {
		case "cgroup2":
			if h.v2 == "" {
				h.v2 = fields[4]
			}
		case "cgroup":
			for _, opt := range strings.Split(after[2], ",") {
				if slices.Contains(v1Controllers, opt) {
					if _, seen := h.v1[opt]; !seen {
						h.v1[opt] = fields[4]
					}
				}
			}
		}
	}
	return h, sc.Err()
}

// v2Missing lists the v2 controllers the cgroup2 root does not offer.
func (h hierarchies) v2Missing() []string {
	if h.v2 == "" {
		return v2Controllers
	}
	data, _ := os.ReadFile(filepath.Join(h.v2, "cgroup.controllers"))
	have := strings.Fields(string(data))
	var missing []string
	for _, c := range v2Controllers {
		if !slices.Contains(have, c) {
			missing = append(missing, c)
		}
	}
	return missing
}

func (h hierarchies) v1Missing() []string {
	var missing []string
	for _, c := range v1Controllers {
		if h.v1[c] == "" {
			missing = append(missing, c)
		}
	}
	return missing
}

// NewCgroup makes the cgroup name under massim (v2 where the cgroup2 root
// offers cpu, memory and pids, else v1 with cpu, cpuacct, memory and pids)
// and writes the limits. A cgroup of that name left by a team that is gone
// is emptied and made anew: the caller holds the lease of the id in name.
func NewCgroup(name string, l Limits) (Cgroup, error) {
	h, err := findHierarchies()
	if err != nil {
		return nil, err
	}
	var cg Cgroup
	switch {
	case len(h.v2Missing()) == 0:
		cg, err = newV2(h.v2, name)
	case len(h.v1Missing()) == 0:
		cg, err = newV1(h.v1, name)
	default:
		return nil, fmt.Errorf("sandbox: %s", cgroupProblem(h))
	}
	if err != nil {
		return nil, err
	}
	if err := cg.Apply(l); err != nil {
		_ = cg.Remove()
		return nil, err
	}
	return cg, nil
}

// OpenCgroup opens the existing cgroup name (for the server, which reads
// its CPU time and removes it when the supervisor could not).
func OpenCgroup(name string) (Cgroup, error) {
	h, err := findHierarchies()
	if err != nil {
		return nil, err
	}
	switch {
	case len(h.v2Missing()) == 0:
		return openV2(h.v2, name)
	case len(h.v1Missing()) == 0:
		return openV1(h.v1, name)
	}
	return nil, fmt.Errorf("sandbox: %s", cgroupProblem(h))
}

// cgroupProblem says what the cgroup hierarchies lack.
func cgroupProblem(h hierarchies) string {
	v2 := "no cgroup2 file system is mounted"
	if h.v2 != "" {
		v2 = "the cgroup2 hierarchy at " + h.v2 + " lacks the controllers " + strings.Join(h.v2Missing(), ", ")
	}
	v1 := "no cgroup v1 controller is mounted"
	if len(h.v1) > 0 {
		v1 = "cgroup v1 lacks the controllers " + strings.Join(h.v1Missing(), ", ") + " (mount them under /sys/fs/cgroup)"
	}
	return "no cgroup hierarchy with cpu, memory and pids: " + v2 + "; " + v1
}

// cgdir is a team's cgroup folder in one hierarchy, held open with its
// parent and the hierarchy's root: the supervisor writes to it after it
// has left the file system it opened it in (the team's view has /sys
// read-only), and removes it through the parent.
type cgdir struct {
	root, parent, dir *os.File
	name              string
}

// openCgdir opens root/Parent/name; with create it makes the folders (a
// cgroup name left by a team that is gone is emptied and made anew; Parent
// may be removed meanwhile by another server's last team: then it is made
// again).
func openCgdir(root, name string, create bool) (*cgdir, error) {
	d := &cgdir{name: name}
	var err error
	if d.root, err = os.Open(root); err != nil {
		return nil, fmt.Errorf("sandbox: open cgroup hierarchy: %w", err)
	}
	parent, dir := filepath.Join(root, Parent), filepath.Join(root, Parent, name)
	for try := 0; ; try++ {
		if create {
			if err := os.Mkdir(parent, 0o755); err != nil && !errors.Is(err, os.ErrExist) {
				d.close()
				return nil, fmt.Errorf("sandbox: make cgroup %s: %w", parent, err)
			}
		}
		if d.parent, err = os.Open(parent); err != nil {
			if create && try < 5 && errors.Is(err, os.ErrNotExist) {
				continue
			}
			d.close()
			return nil, fmt.Errorf("sandbox: open cgroup %s: %w", parent, err)
		}
		if create {
			if err := clearStale(d.parent, name); err != nil {
				d.close()
				return nil, err
			}
			if err := unix.Mkdirat(int(d.parent.Fd()), name, 0o755); err != nil {
				_ = d.parent.Close()
				d.parent = nil
				if try < 5 && errors.Is(err, unix.ENOENT) {
					continue // the parent was removed after we opened it
				}
				d.close()
				return nil, fmt.Errorf("sandbox: make cgroup %s: %w", dir, err)
			}
		}
		break
	}
	if d.dir, err = os.Open(dir); err != nil {
		d.close()
		return nil, fmt.Errorf("sandbox: open cgroup %s: %w", dir, err)
	}
	return d, nil
}

func (d *cgdir) path() string { return filepath.Join(d.parent.Name(), d.name) }

func (d *cgdir) close() {
	for _, f := range []*os.File{d.dir, d.parent, d.root} {
		if f != nil {
			_ = f.Close()
		}
	}
}

// write writes a file of the cgroup, naming it in the error.
func (d *cgdir) write(file, value string) error {
	if err := writeAt(d.dir, file, value); err != nil {
		return fmt.Errorf("sandbox: write %q to %s: %w", value, filepath.Join(d.path(), file), err)
	}
	return nil
}

func writeAt(dir *os.File, file, value string) error {
	fd, err := unix.Openat(int(dir.Fd()), file, unix.O_WRONLY|unix.O_TRUNC|unix.O_CLOEXEC, 0) // O_TRUNC as a shell's >
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	_, err = unix.Write(fd, []byte(value))
	return err
}

// read reads a file of the cgroup.
func (d *cgdir) read(file string) ([]byte, error) {
	fd, err := unix.Openat(int(d.dir.Fd()), file, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("sandbox: read %s: %w", filepath.Join(d.path(), file), err)
	}
	f := os.NewFile(uintptr(fd), file)
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("sandbox: read %s: %w", filepath.Join(d.path(), file), err)
	}
	return data, nil
}

// keyed reads the value of key from a file of "key value" lines
// (memory.events, cpu.stat); 0 when the key is not there.
func (d *cgdir) keyed(file, key string) (int64, error) {
	data, err := d.read(file)
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(data), "\n") {
		k, v, ok := strings.Cut(line, " ")
		if ok && k == key {
			n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			if err != nil {
				return 0, fmt.Errorf("sandbox: %s: %s: %w", filepath.Join(d.path(), file), key, err)
			}
			return n, nil
		}
	}
	return 0, nil
}

// procs lists the pids of cgroup.procs.
func (d *cgdir) procs() ([]int, error) { return pidsAt(int(d.dir.Fd())), nil }

// remove kills every process of the cgroup, removes it (a container
// engine's cgroups below it first; waiting a moment for the killed to
// leave: a process leaves its cgroup a little after SIGKILL), then the
// parent unless another team still has a cgroup there.
func (d *cgdir) remove() error {
	defer d.close()
	if err := removeBelow(int(d.parent.Fd()), d.name, 0); err != nil {
		return fmt.Errorf("sandbox: remove cgroup %s: %w", d.path(), err)
	}
	// EBUSY or ENOTEMPTY: another team's cgroup is in it, and that team removes it.
	_ = unix.Unlinkat(int(d.root.Fd()), Parent, unix.AT_REMOVEDIR)
	return nil
}

// removeBelow removes the cgroup name of the folder parent and every
// cgroup in it, killing their processes.
func removeBelow(parent int, name string, level int) error {
	fd, err := unix.Openat(parent, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if errors.Is(err, unix.ENOENT) {
		return nil
	}
	if err != nil {
		return err
	}
	dir := os.NewFile(uintptr(fd), name)
	defer dir.Close()
	entries, err := dir.ReadDir(-1)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.IsDir() && level < 8 {
			if err := removeBelow(fd, e.Name(), level+1); err != nil {
				return err
			}
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		for _, pid := range pidsAt(fd) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		err := unix.Unlinkat(parent, name, unix.AT_REMOVEDIR)
		if err == nil || errors.Is(err, unix.ENOENT) {
			return nil
		}
		if !errors.Is(err, unix.EBUSY) || time.Now().After(deadline) {
			return err
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// pidsAt reads cgroup.procs of the cgroup folder dir.
func pidsAt(dir int) []int {
	fd, err := unix.Openat(dir, "cgroup.procs", unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	f := os.NewFile(uintptr(fd), "cgroup.procs")
	defer f.Close()
	data, _ := io.ReadAll(f)
	var out []int
	for _, s := range strings.Fields(string(data)) {
		if pid, err := strconv.Atoi(s); err == nil {
			out = append(out, pid)
		}
	}
	return out
}

// clearStale empties and removes a cgroup folder left by a team that is
// gone, if there is one.
func clearStale(parent *os.File, name string) error {
	if err := removeBelow(int(parent.Fd()), name, 0); err != nil {
		return fmt.Errorf("sandbox: remove the stale cgroup %s: %w", filepath.Join(parent.Name(), name), err)
	}
	return nil
}

// removeEverywhere removes Parent/name with what is below it from every
// cgroup hierarchy, and Parent where it is left empty: a container engine
// given Parent/name as its cgroup parent makes it in every hierarchy it
// uses, not only in those of the team's limits.
func removeEverywhere(name string) error {
	h, err := findHierarchies()
	if err != nil {
		return err
	}
	var errs []error
	for _, root := range h.all {
		parent, err := os.Open(filepath.Join(root, Parent))
		if err != nil {
			continue
		}
		if err := removeBelow(int(parent.Fd()), name, 0); err != nil {
			errs = append(errs, fmt.Errorf("sandbox: remove cgroup %s: %w", filepath.Join(root, Parent, name), err))
		}
		_ = parent.Close()
		_ = syscall.Rmdir(filepath.Join(root, Parent)) // fails while another team has a cgroup there
	}
	return errors.Join(errs...)
}
