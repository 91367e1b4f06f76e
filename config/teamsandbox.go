package config

import "math"

// The values of server.teamSandbox (docs/config.md, "Team sandbox").
const (
	// SandboxAuto runs every team command in a sandbox of its own: on Linux
	// namespaces and cgroups (or a podman container for a team with an
	// image); where that cannot be built, team commands are refused.
	SandboxAuto = "auto"
	// SandboxNone runs team commands as the server's user, unconfined: only
	// for teams the organiser trusts (their own, in practice and scores).
	SandboxNone = "none"
)

// DefaultTeamUIDs is server.teamUIDs' default: a thousand ids above the
// ranges that Debian gives users, subordinate ids and systemd's
// containers, below 2^31 (tools that read ids as signed numbers).
var DefaultTeamUIDs = Bounds{Min: 2000000000, Max: 2000000999}

// readTeamSandbox reads the sandbox keys of the server block into given
// (massim-go extensions, operational like the team command keys).
func readTeamSandbox(r *report, o *object, given layer) {
	if v := o.opt("teamSandbox"); v != nil {
		if s, ok := r.stringValue(v, o.keyPath("teamSandbox")); ok {
			if s != SandboxAuto && s != SandboxNone {
				r.fail(v.file, o.keyPath("teamSandbox"), "must be %q or %q", SandboxAuto, SandboxNone)
			} else {
				given["teamSandbox"] = s
			}
		}
	}
	if v := o.opt("teamCPUs"); v != nil {
		if f, ok := r.numberValue(v, o.keyPath("teamCPUs"), floatRange{0.01, 1024}); ok {
			given["teamCPUs"] = f
		}
	}
	for _, k := range []struct {
		key string
		min int64
	}{{"teamMemoryMiB", 64}, {"teamProcesses", 16}, {"teamScratchMiB", 1}, {"teamOpenFiles", 64}} {
		if v := o.opt(k.key); v != nil {
			if i, ok := r.intValue(v, o.keyPath(k.key), atLeast(k.min)); ok {
				given[k.key] = i
			}
		}
	}
	if v := o.opt("teamUIDs"); v != nil {
		// 0 is root and the top of the range is (uid_t)-1 and nobody's
		// neighbours: a team's ids are ordinary unprivileged ids.
		if b, ok := r.boundsValue(v, o.keyPath("teamUIDs"), between(1000, math.MaxInt32)); ok {
			given["teamUIDs"] = b
		}
	}
}
