// Package teamcmd starts and supervises the command of a team that the
// server runs itself (docs/config.md, "Team commands"; docs/operations.md,
// "Team commands"): the team's argv with the match's {placeholders} filled
// in, the MASSIM_* variables and the team's env added to the server's
// environment, run without a shell in its own process group, its output
// (stdout and stderr) in a log file capped at a size that keeps the
// beginning and the end, restarted a bounded number of times when it exits
// during the match, and stopped with SIGTERM to its whole process group,
// SIGKILL after a grace period.
//
// No team process may outlive the server, not even after kill -9 of the
// server. So the server never starts a team command itself: it starts a
// supervisor, the server's own binary run again with a hidden first
// argument (SupervisorArg; main and every TestMain that starts team
// commands call ServeIfSupervisor first). The supervisor starts the
// command, copies its output into the log, restarts it, and reports each
// start and exit to the server as JSON lines on its standard output. Its
// standard input is a pipe from the server that the server never writes
// to after the spec: when it ends — the server closed it to stop the team,
// or the server died, whatever killed it — the supervisor stops the team
// and exits. On Linux the supervisor also gets SIGTERM when the server dies
// (a parent-death signal, set when it is started from a thread that lives
// as long as the server), and it is a child subreaper: descendants that
// leave the team's process group (a daemon that calls setsid) are
// reparented to it when their parent dies, and it kills them too before it
// exits. Elsewhere see docs/operations.md, "Team commands".
package teamcmd
