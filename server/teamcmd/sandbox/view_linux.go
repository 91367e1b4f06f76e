package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// The staging tmpfs the view is built in: mounted over /tmp in the
// sandbox's own mount namespace (the machine's /tmp is not touched), with
// the new root at stageNew, a pristine copy of the machine's tree at
// stageOld (the source of the folders shown again), the team's scratch
// tmpfs at stageScratch and an empty file to bind over hidden files.
const (
	stage        = "/tmp"
	stageNew     = stage + "/new"
	stageOld     = stage + "/old"
	stageScratch = stage + "/scratch"
	stageEmpty   = stage + "/empty"
)

// alwaysHidden are hidden in every view: /run holds the sockets of the
// machine's local services (a Unix socket is a local service that a
// network namespace does not cut off), /home the users' files (the team's
// home is on its scratch), /root the administrator's.
var alwaysHidden = []string{"/run", "/home", "/root"}

// neverHidden are folders that a hidden path may lie in but never be:
// hiding them would hide the system (a server whose working folder is /).
var neverHidden = []string{"/", "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt", "/var",
	"/dev", "/proc", "/sys", "/tmp", "/boot"}

// roAttrs are the attributes of everything the team sees of the machine.
const roAttrs = unix.MOUNT_ATTR_RDONLY | unix.MOUNT_ATTR_NOSUID | unix.MOUNT_ATTR_NODEV

// Enter builds the team's view of the file system and makes it the
// caller's root. The caller is process 1 of fresh PID, mount, network, IPC
// and UTS namespaces (CloneFlags) and root: it brings loopback up, names
// the host "massim-team" and mounts, in its own mount namespace only:
//
//   - the machine's file system read-only, nosuid, nodev;
//   - a fresh /proc of the team's processes (hidepid=2: not even this
//     process shows) and a fresh read-only /sys (of its network namespace);
//   - /dev with null, zero, full, random, urandom and tty only;
//   - one tmpfs of spec.Limits.Scratch bytes for the team's home (Home,
//     owned by the team), /tmp and /dev/shm;
//   - empty folders over /run, /home, /root and the folders of spec.Hide
//     (over its files an empty file), and the folders and files of
//     spec.Show again, read-only, where they lie in a hidden folder. The
//     deeper path wins: a hidden file in a shown folder stays hidden.
//
// Nothing of it is seen outside the namespace, and all of it goes when the
// namespace's last process ends.
func Enter(spec Spec) error {
	if err := loopbackUp(); err != nil {
		return err
	}
	if err := unix.Sethostname([]byte("massim-team")); err != nil {
		return fmt.Errorf("sandbox: set the host name: %w", err)
	}
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("sandbox: make the mounts private: %w", err)
	}
	// Two copies of the machine's mount tree, taken before anything is
	// mounted here: the new root, and the pristine source of shown folders.
	newTree, err := unix.OpenTree(unix.AT_FDCWD, "/", unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC|unix.AT_RECURSIVE)
	if err != nil {
		return fmt.Errorf("sandbox: copy the mount tree: %w", err)
	}
	defer unix.Close(newTree)
	oldTree, err := unix.OpenTree(unix.AT_FDCWD, "/", unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC|unix.AT_RECURSIVE)
	if err != nil {
		return fmt.Errorf("sandbox: copy the mount tree: %w", err)
	}
	defer unix.Close(oldTree)
	if err := unix.MountSetattr(newTree, "", unix.AT_EMPTY_PATH|unix.AT_RECURSIVE, &unix.MountAttr{Attr_set: roAttrs}); err != nil {
		return fmt.Errorf("sandbox: make the system read-only: %w", err)
	}
	if err := tmpfs(stage, "size=1m,mode=700"); err != nil {
		return err
	}
	if err := mkdirs(0o700, stageNew, stageOld, stageScratch); err != nil {
		return err
	}
	if err := os.WriteFile(stageEmpty, nil, 0o444); err != nil {
		return fmt.Errorf("sandbox: %w", err)
	}
	for _, m := range []struct {
		fd int
		at string
	}{{newTree, stageNew}, {oldTree, stageOld}} {
		if err := unix.MoveMount(m.fd, "", unix.AT_FDCWD, m.at, unix.MOVE_MOUNT_F_EMPTY_PATH); err != nil {
			return fmt.Errorf("sandbox: attach the mount tree at %s: %w", m.at, err)
		}
	}
	if err := scratch(spec); err != nil {
		return err
	}
	if err := freshProcAndDev(); err != nil {
		return err
	}
	for _, op := range viewOps(spec) {
		if err := op.apply(); err != nil {
			return err
		}
	}
	return switchRoot(stageNew)
}

// scratch mounts the team's scratch tmpfs with its home, tmp and shm
// folders and binds tmp over /tmp.
func scratch(spec Spec) error {
	opts := "size=" + strconv.FormatInt(spec.Limits.Scratch, 10) + ",mode=755"
	if err := tmpfs(stageScratch, opts); err != nil {
		return err
	}
	for _, d := range []struct {
		name string
		mode os.FileMode
		team bool
	}{{"home", 0o700, true}, {"tmp", 0o1777, false}, {"shm", 0o1777, false}} {
		p := filepath.Join(stageScratch, d.name)
		if err := os.Mkdir(p, d.mode); err != nil {
			return fmt.Errorf("sandbox: %w", err)
		}
		if err := unix.Chmod(p, uint32(d.mode)); err != nil { // the umask took bits off; 0o1000 is sticky here
			return fmt.Errorf("sandbox: chmod %s: %w", p, err)
		}
		if d.team {
			if err := os.Chown(p, spec.UID, spec.UID); err != nil {
				return fmt.Errorf("sandbox: %w", err)
			}
		}
	}
	return bind(filepath.Join(stageScratch, "tmp"), stageNew+Temp, false)
}

// freshProcAndDev replaces the machine's /proc, /sys and /dev in the new
// root: the team's processes, its network namespace's devices (loopback)
// without the machine's cgroups, and a few devices.
func freshProcAndDev() error {
	for _, p := range []string{"/proc", "/sys", "/dev"} {
		if err := unix.Unmount(stageNew+p, unix.MNT_DETACH); err != nil && !errors.Is(err, unix.EINVAL) {
			return fmt.Errorf("sandbox: unmount the machine's %s: %w", p, err)
		}
	}
	if err := unix.Mount("proc", stageNew+"/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, "hidepid=2"); err != nil {
		return fmt.Errorf("sandbox: mount /proc: %w", err)
	}
	if err := unix.Mount("sysfs", stageNew+"/sys", "sysfs", unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		return fmt.Errorf("sandbox: mount /sys: %w", err)
	}
	dev := stageNew + "/dev"
	if err := tmpfs(dev, "size=64k,mode=755"); err != nil {
		return err
	}
	for _, name := range []string{"null", "zero", "full", "random", "urandom", "tty"} {
		if err := os.WriteFile(filepath.Join(dev, name), nil, 0o666); err != nil {
			return fmt.Errorf("sandbox: %w", err)
		}
		if err := unix.Mount(filepath.Join(stageOld, "dev", name), filepath.Join(dev, name), "", unix.MS_BIND, ""); err != nil {
			return fmt.Errorf("sandbox: bind /dev/%s: %w", name, err)
		}
	}
	for name, target := range map[string]string{"fd": "/proc/self/fd", "stdin": "/proc/self/fd/0",
		"stdout": "/proc/self/fd/1", "stderr": "/proc/self/fd/2"} {
		if err := os.Symlink(target, filepath.Join(dev, name)); err != nil {
			return fmt.Errorf("sandbox: %w", err)
		}
	}
	if err := mkdirs(0o755, filepath.Join(dev, "shm")); err != nil {
		return err
	}
	return bind(filepath.Join(stageScratch, "shm"), filepath.Join(dev, "shm"), false)
}

// viewOp hides a path (an empty folder or file over it) or shows a folder
// (bound again from the machine's tree, or from src).
type viewOp struct {
	path string // in the team's view
	hide bool
	src  string // a show's source ("": the machine's path)
}

// viewOps orders the hides and shows: shallower first, hides before shows
// of the same depth, so the deeper one wins.
func viewOps(spec Spec) []viewOp {
	var ops []viewOp
	for _, p := range append(slices.Clone(alwaysHidden), spec.Hide...) {
		p = filepath.Clean(p)
		if filepath.IsAbs(p) && !slices.Contains(neverHidden, p) {
			ops = append(ops, viewOp{path: p, hide: true})
		}
	}
	for _, p := range spec.Show {
		if p = filepath.Clean(p); filepath.IsAbs(p) && p != "/" {
			ops = append(ops, viewOp{path: p})
		}
	}
	ops = append(ops, viewOp{path: Home, src: filepath.Join(stageScratch, "home")})
	slices.SortStableFunc(ops, func(a, b viewOp) int {
		if d := depth(a.path) - depth(b.path); d != 0 {
			return d
		}
		switch {
		case a.hide == b.hide:
			return 0
		case a.hide:
			return -1
		}
		return 1
	})
	return ops
}

func depth(p string) int { return strings.Count(filepath.Clean(p), "/") }

func (op viewOp) apply() error {
	target := stageNew + op.path
	if op.hide {
		info, err := os.Lstat(target)
		if err != nil {
			return nil // not there, or in a hidden folder already
		}
		if info.IsDir() {
			return tmpfs(target, "size=64k,mode=755")
		}
		return bind(stageEmpty, target, true)
	}
	src := op.src
	file := false
	if src == "" {
		src = stageOld + op.path
		info, err := os.Stat(src)
		if err != nil || !info.IsDir() && !info.Mode().IsRegular() {
			return nil // a missing one fails the command's start
		}
		file = info.Mode().IsRegular()
	}
	if file {
		return showFile(src, target, op.path)
	}
	if err := os.MkdirAll(target, 0o755); err != nil {
		return fmt.Errorf("sandbox: show %s: %w", op.path, err)
	}
	return bind(src, target, op.src == "")
}

// showFile binds a single file (the massim binary of {massim}) read-only
// at its path. Where it lies in a hidden folder, the folders above it are
// made in that folder's empty tmpfs (or the team's scratch) first; where
// it is visible already, the bind changes nothing a team could tell.
func showFile(src, target, path string) error {
	if _, err := os.Lstat(target); err != nil {
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return fmt.Errorf("sandbox: show %s: %w", path, err)
		}
		if err := os.WriteFile(target, nil, 0o555); err != nil {
			return fmt.Errorf("sandbox: show %s: %w", path, err)
		}
	}
	return bind(src, target, true)
}

// switchRoot makes dir the root and drops the old one (with the staging).
func switchRoot(dir string) error {
	if err := unix.Chdir(dir); err != nil {
		return fmt.Errorf("sandbox: %w", err)
	}
	// pivot_root(".", ".") stacks the old root on the new one, and the
	// detach takes it away (see pivot_root(2)).
	if err := unix.PivotRoot(".", "."); err != nil {
		return fmt.Errorf("sandbox: pivot_root: %w", err)
	}
	if err := unix.Unmount(".", unix.MNT_DETACH); err != nil {
		return fmt.Errorf("sandbox: detach the old root: %w", err)
	}
	return unix.Chdir("/")
}

func tmpfs(at, opts string) error {
	if err := unix.Mount("tmpfs", at, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, opts); err != nil {
		return fmt.Errorf("sandbox: mount a tmpfs (%s) on %s: %w", opts, at, err)
	}
	return nil
}

// bind binds src over target; read-only (and nosuid, nodev) with all its
// submounts when ro.
func bind(src, target string, ro bool) error {
	if err := unix.Mount(src, target, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
		return fmt.Errorf("sandbox: bind %s on %s: %w", src, target, err)
	}
	if !ro {
		return nil
	}
	if err := unix.MountSetattr(unix.AT_FDCWD, target, unix.AT_RECURSIVE, &unix.MountAttr{Attr_set: roAttrs}); err != nil {
		return fmt.Errorf("sandbox: make %s read-only: %w", target, err)
	}
	return nil
}

func mkdirs(mode os.FileMode, dirs ...string) error {
	for _, d := range dirs {
		if err := os.MkdirAll(d, mode); err != nil {
			return fmt.Errorf("sandbox: %w", err)
		}
	}
	return nil
}
