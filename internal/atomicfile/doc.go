// Package atomicfile writes files so that a reader, or a process started
// after a crash, sees either the old content or the new one, never a part:
// the data goes to a temporary file beside the target, is optionally
// synced, and is renamed over it.
//
// Files are created with mode 0644 minus the process umask, like any file
// the tools of an organiser create: results, standings and replays are
// meant to be read by others (a web server, a team's analysis script).
package atomicfile
