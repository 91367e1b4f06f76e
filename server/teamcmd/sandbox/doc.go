// Package sandbox runs a team command as a stranger's code
// (docs/untrusted-teams.md): on Linux, in namespaces of its own (PID,
// mount, network, IPC, UTS) as a user and group of its own, with its CPU,
// memory, processes and threads bounded by a cgroup (v1 or v2), its open
// files by a resource limit and its scratch disk by the size of a tmpfs;
// or, for a team with an image, in a podman container under the same
// limits and the same network rule.
//
// The supervisor of package teamcmd is the sandbox's first process: the
// server starts it with CloneFlags, so it is process 1 of the team's PID
// namespace (every process of the team dies with it, whatever killed it)
// and the only process of the team's network namespace outside the team.
// It builds the team's view of the file system (Enter: the system
// read-only, the team's dir read-only, a private home and temporary folder
// of bounded size, the config, the tournament folder, the other teams' dirs
// and the server's secrets hidden), creates the team's cgroup, and starts
// the command — again after each exit — through a small trampoline (the
// binary run again with ExecArg) that joins the cgroup before it drops to
// the team's user and runs the program.
//
// The agent port reaches the team without copying a byte: the server opens
// a listening socket inside the team's network namespace (ListenIn) and
// accepts from it as from its own port; the namespace has nothing else but
// loopback. User ids come from a range (LeaseUID): a lease is an abstract
// Unix socket bound while the id is in use, so concurrent servers (the
// matches of a league) never share one, and nothing is left on the machine
// when they end.
//
// Check says what the machine lacks for a sandbox; the server refuses to
// start team commands without one unless the config says teamSandbox
// "none". Outside Linux every sandbox is missing.
package sandbox
