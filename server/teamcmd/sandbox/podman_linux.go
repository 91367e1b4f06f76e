package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
)

// Engine finds the container engine: podman on the PATH.
func Engine() (string, error) {
	p, err := exec.LookPath("podman")
	if err != nil {
		return "", fmt.Errorf("sandbox: a team with an image needs podman (not found on the PATH)")
	}
	return p, nil
}

// ImageExists reports whether the engine has image locally.
func ImageExists(engine, image string) error {
	cmd := exec.Command(engine, "image", "exists", image)
	cmd.Env = podmanEnv(nil)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("sandbox: image %s is not on this machine (podman image exists: %v %s); build or load it here (podman build, podman load): no registry is asked",
			image, err, strings.TrimSpace(string(out)))
	}
	return nil
}

// podmanArgs are podman's arguments for one run of a team's container:
// the team's user, the network namespace of the supervisor (loopback
// only, where the server listens for the team), the team's cgroup as the
// container's parent (its limits bound the container), a read-only root,
// a scratch tmpfs at /tmp, no capabilities, no new privileges, the open
// files limit, and the environment by name only (podman takes the values
// from its own environment: no secret on its command line).
func podmanArgs(spec Spec, args, env []string) []string {
	uid := strconv.Itoa(spec.UID)
	out := []string{"run", "--name", spec.Container, "--network", "host", "--user", uid + ":" + uid,
		"--cgroup-parent", "/" + Parent + "/" + spec.Cgroup, "--cgroupns", "private",
		"--read-only", "--tmpfs", Temp + ":rw,size=" + strconv.FormatInt(spec.Limits.Scratch, 10) + ",mode=1777",
		"--cap-drop", "all", "--security-opt", "no-new-privileges",
		"--ulimit", "nofile=" + strconv.Itoa(spec.Limits.OpenFiles) + ":" + strconv.Itoa(spec.Limits.OpenFiles),
		"--ulimit", "core=0:0", "--pids-limit", strconv.Itoa(spec.Limits.Processes),
		// Processes per user: the team's user runs nothing else (its lease).
		"--ulimit", "nproc=" + strconv.Itoa(spec.Limits.Processes) + ":" + strconv.Itoa(spec.Limits.Processes),
		"--hostname", "massim-team", "--pull", "never", "--log-driver", "none", "--rm"}
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if name == "HOME" || name == "PATH" {
			continue // the image's PATH; HOME is its scratch
		}
		out = append(out, "--env", name)
	}
	out = append(out, "--env", "HOME="+Temp, spec.Image)
	return append(out, args...)
}

// podmanEnv is podman's own environment: the machine's PATH (for its
// helpers) and the team's variables, which --env NAME passes on.
func podmanEnv(team []string) []string {
	env := []string{"PATH=" + os.Getenv("PATH")}
	for _, kv := range team {
		if !strings.HasPrefix(kv, "PATH=") {
			env = append(env, kv)
		}
	}
	return env
}
