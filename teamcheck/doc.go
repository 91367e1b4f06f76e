// Package teamcheck tries the team commands of a config before a league
// plays them (massim league -check, and briefly before a league is planned;
// docs/leagues.md, "Checking the teams"). For every team with a command it
// first looks for the obvious causes of a team that cannot start — its dir
// missing, its program not on the PATH or not in its dir, not executable,
// or in a folder its sandbox hides — and otherwise starts the command the
// way a league's match does (server/teamcmd, in its sandbox, on an
// in-process server of its own on a free loopback port) against a short
// practice match, and says whether all its agents were connected at once
// within teamConnectTimeout. A client that connects one agent, waits for
// its sim-start and only then connects the others passes: the practice
// match starts when the team has gone quiet (teamQuietTime), as a league's
// does. Teams are checked several at a time, so fifty teams do not take
// fifty timeouts. Flags and output stay in cmd/massim.
package teamcheck
