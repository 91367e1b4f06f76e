package sandbox

import (
	"errors"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// Check says what this machine lacks to sandbox team commands with user
// ids from [firstUID, lastUID] (and containers, with images): nil when
// nothing. The error names every missing piece.
func Check(firstUID, lastUID int, images bool) error {
	var missing []string
	if os.Geteuid() != 0 {
		missing = append(missing, "root: the sandbox mounts, makes cgroups and runs each team as a user id of its own (run the server as root)")
	} else {
		if err := probeNamespaces(); err != nil {
			missing = append(missing, "namespaces: "+err.Error())
		}
		if err := probeCgroups(); err != nil {
			missing = append(missing, strings.TrimPrefix(err.Error(), "sandbox: "))
		}
	}
	if !kernelAtLeast(5, 12) {
		missing = append(missing, "Linux 5.12 or later (open_tree and mount_setattr build the team's read-only view)")
	}
	if users := usersInRange(firstUID, lastUID); len(users) > 0 {
		missing = append(missing, fmt.Sprintf("free user ids: teamUIDs [%d, %d] holds %s of this machine (choose a range no user or group has)",
			firstUID, lastUID, strings.Join(users, ", ")))
	}
	if images {
		if _, err := Engine(); err != nil {
			missing = append(missing, strings.TrimPrefix(err.Error(), "sandbox: "))
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return errors.New("sandbox: team commands cannot be isolated on this machine; missing: " + strings.Join(missing, "; "))
}

// probeNamespaces starts a process in the sandbox's namespaces. Its program
// does not exist: a start that fails with "no such file" got as far as
// exec, past the namespaces, and needs nothing to clean up.
func probeNamespaces() error {
	_, err := os.StartProcess("/nonexistent/massim-sandbox-probe", []string{"probe"},
		&os.ProcAttr{Sys: &syscall.SysProcAttr{Cloneflags: CloneFlags(ModeNamespaces)}})
	if errors.Is(err, syscall.ENOENT) {
		return nil
	}
	if err == nil {
		return errors.New("the probe ran")
	}
	return fmt.Errorf("cannot make PID, mount, network, IPC and UTS namespaces: %w", err)
}

// probeCgroups makes and removes a cgroup the way a team's is made.
func probeCgroups() error {
	cg, err := NewCgroup("check"+strconv.Itoa(os.Getpid()), Limits{CPUs: 1, Memory: 1 << 30, Processes: 1024})
	if err != nil {
		return err
	}
	return cg.Remove()
}

// usersInRange lists the users and groups of /etc/passwd and /etc/group
// with ids in [first, last]: a team running as one of them would own their
// files.
func usersInRange(first, last int) []string {
	var out []string
	for _, db := range []struct{ file, kind string }{{"/etc/passwd", "user"}, {"/etc/group", "group"}} {
		data, err := os.ReadFile(db.file)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(data), "\n") {
			f := strings.Split(line, ":")
			if len(f) < 3 {
				continue
			}
			if id, err := strconv.Atoi(f[2]); err == nil && id >= first && id <= last {
				out = append(out, db.kind+" "+f[0]+" ("+f[2]+")")
			}
		}
	}
	sort.Strings(out)
	return out
}

// kernelAtLeast compares the running kernel's release with major.minor.
func kernelAtLeast(major, minor int) bool {
	var u unix.Utsname
	if unix.Uname(&u) != nil {
		return false
	}
	var ma, mi int
	if _, err := fmt.Sscanf(unix.ByteSliceToString(u.Release[:]), "%d.%d", &ma, &mi); err != nil {
		return false
	}
	return ma > major || ma == major && mi >= minor
}
