// Package atomicfile writes files so that a reader, or a process started
// after a crash, sees either the old content or the new one, never a part:
// the data goes to a temporary file beside the target, is optionally
// synced, and is renamed over it (Write) or hard-linked to a name that must
// be new (Create). A process killed in the middle of a write leaves its
// temporary file; RemoveTemporary clears them on the next start.
//
// Files are created with mode 0644 minus the process umask, like any file
// the tools of an organiser create: results, standings and replays are
// meant to be read by others (a web server, a team's analysis script).
package atomicfile
