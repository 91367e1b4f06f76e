package config

import (
	"slices"
	"time"
)

// serverKeys lists the server block's keys in the order of docs/config.md, "The server block"; Defaulted
// follows this order.
var serverKeys = []string{
	"tournamentMode", "teamsPerMatch", "launch", "port", "backlog", "agentTimeout",
	"resultPath", "logLevel", "logPath", "replayPath", "maxPacketLength", "waitBetweenSimulations",
}

// DefaultPort is the agent port when the server block names none.
const DefaultPort = 12300

// serverDefaults is the defaults layer of the server block: the Java server
// requires every key, we use these defaults (docs/config.md, "The server
// block"). A function, not a
// package variable, so no caller can change the defaults of another.
func serverDefaults() layer {
	return layer{
		"tournamentMode":         ModeRoundRobin,
		"teamsPerMatch":          2,
		"launch":                 "key",
		"port":                   DefaultPort,
		"backlog":                10000,
		"agentTimeout":           4000 * time.Millisecond,
		"resultPath":             "results",
		"logLevel":               "normal",
		"logPath":                "", // no log file
		"replayPath":             "", // no replays
		"maxPacketLength":        65536,
		"waitBetweenSimulations": time.Duration(0),
		"adminToken":             "", // admin API off
		"replayFormat":           ReplayCompact,
		"frontDeskTimeout":       10 * time.Second,
		"waitForOffline":         WaitSeen,
		"teamConnectTimeout":     60 * time.Second,
		"teamQuietTime":          DefaultTeamQuietTime,
		"teamStopGrace":          5 * time.Second,
		"teamRestarts":           3,
		"teamLogLimit":           1 << 20,
		"teamSandbox":            SandboxAuto,
		"teamCPUs":               1.0,
		"teamMemoryMiB":          2048,
		"teamProcesses":          1024,
		"teamScratchMiB":         512,
		"teamOpenFiles":          4096,
		"teamUIDs":               DefaultTeamUIDs,
		"silenceTimeout":         DefaultSilenceTimeout,
	}
}

// Whom a step waits for while an account of the match has no connection
// (server.waitForOffline, a massim-go extension; docs/config.md, "Offline
// agents").
const (
	WaitNever  = "never"  // no account without a connection
	WaitSeen   = "seen"   // an account that has logged in before: a team restarting (the default)
	WaitAlways = "always" // every account of the match, as the Java server does
)

// DefaultSilenceTimeout is server.silenceTimeout's default: several steps
// of the default agentTimeout (4 s), and longer than TCP takes to recover
// a lost packet, so only a connection that is really gone is closed
// (docs/protocol.md, "Slow links and dead connections").
const DefaultSilenceTimeout = 30 * time.Second

// DefaultTeamQuietTime is server.teamQuietTime's default: far longer than
// the gaps between the logins of a team that starts all its agents at once,
// far shorter than teamConnectTimeout, which a team that connects in two
// waves would otherwise wait before every match (docs/config.md, "Team
// commands").
const DefaultTeamQuietTime = 3 * time.Second

// tlsKeys are the server keys naming TLS files, certificate before key.
var tlsKeys = []string{"agentTLSCert", "agentTLSKey", "monitorTLSCert", "monitorTLSKey"}

// checkTLSPairs requires a key with every certificate and the other way round.
func checkTLSPairs(r *report, o *object, given layer) bool {
	ok := true
	for i := 0; i < len(tlsKeys); i += 2 {
		cert, key := givenString(given[tlsKeys[i]]), givenString(given[tlsKeys[i+1]])
		if (cert == "") != (key == "") {
			have, missing := tlsKeys[i], tlsKeys[i+1]
			if cert == "" {
				have, missing = missing, have
			}
			r.fail(o.opt(have).file, o.keyPath(have), "needs %q as well", missing)
			ok = false
		}
	}
	return ok
}

// givenString is a given string value, "" when absent.
func givenString(v any) string {
	s, _ := v.(string)
	return s
}

// Replay formats (server.replayFormat, a massim-go extension).
const (
	ReplayCompact  = "compact"  // our compact, seekable file (docs/replays.md, "Compact format")
	ReplayOfficial = "official" // the official folder layout
	ReplayBoth     = "both"
)

var logLevels = []string{"debug", "normal", "error", "critical"}

// readServer validates the "server" block (absent: all defaults) and
// returns it with defaults applied.
func readServer(r *report, root *object) (Server, bool) {
	mark := r.mark()
	given := layer{}
	n := root.opt("server")
	var o *object
	if n != nil {
		var ok bool
		if o, ok = r.object(n, "server", root.file()); !ok {
			return Server{}, false
		}
	}
	str := func(key string) {
		if v := o.opt(key); v != nil {
			if s, ok := r.stringValue(v, o.keyPath(key)); ok {
				given[key] = s
			}
		}
	}
	num := func(key string, rng intRange) {
		if v := o.opt(key); v != nil {
			if i, ok := r.intValue(v, o.keyPath(key), rng); ok {
				given[key] = i
			}
		}
	}
	millis := func(key string, rng intRange) {
		if v := o.opt(key); v != nil {
			if i, ok := r.intValue(v, o.keyPath(key), rng); ok {
				given[key] = time.Duration(i) * time.Millisecond
			}
		}
	}
	if o != nil {
		str("tournamentMode")
		num("teamsPerMatch", atLeast(1))
		str("launch")
		num("port", between(0, 65535)) // 0: any free port, handy in tests
		num("backlog", atLeast(0))
		millis("agentTimeout", atLeast(1))
		str("resultPath")
		str("logLevel")
		str("logPath")
		str("replayPath")
		num("maxPacketLength", atLeast(1))
		millis("waitBetweenSimulations", atLeast(0))
		str("adminToken")                      // massim-go extension; not in serverKeys, so never listed as defaulted
		millis("frontDeskTimeout", atLeast(1)) // massim-go extension, like adminToken
		str("replayFormat")                    // massim-go extension, like adminToken
		millis("silenceTimeout", atLeast(0))   // massim-go extension, like adminToken
		for _, key := range tlsKeys {
			str(key) // massim-go extension, like adminToken
		}
		str("waitForOffline") // massim-go extension, like adminToken
		// Team commands (massim-go extensions, like adminToken).
		millis("teamConnectTimeout", atLeast(1))
		millis("teamQuietTime", atLeast(0))
		millis("teamStopGrace", atLeast(0))
		num("teamRestarts", atLeast(0))
		num("teamLogLimit", atLeast(1024))
		readTeamSandbox(r, o, given)
		o.finish()
		checkServerStrings(r, o, given)
	}
	if !r.okSince(mark) {
		return Server{}, false
	}
	var defaulted []string
	for _, key := range serverKeys {
		if _, ok := given[key]; !ok {
			defaulted = append(defaulted, key)
		}
	}
	if !checkTLSPairs(r, o, given) {
		return Server{}, false
	}
	extra := layer{"defaulted": defaulted,
		"agentTLS":   map[string]any{"cert": givenString(given["agentTLSCert"]), "key": givenString(given["agentTLSKey"])},
		"monitorTLS": map[string]any{"cert": givenString(given["monitorTLSCert"]), "key": givenString(given["monitorTLSKey"])}}
	for _, key := range tlsKeys {
		delete(given, key)
	}
	var s Server
	if err := assemble(&s, serverDefaults(), given, extra); err != nil {
		r.errs = append(r.errs, err)
		return Server{}, false
	}
	return s, true
}

// checkServerStrings checks the string keys whose values are words.
func checkServerStrings(r *report, o *object, given layer) {
	if mode, ok := given["tournamentMode"].(string); ok {
		if mode != ModeRoundRobin && mode != ModeManual && mode != ModeRandom {
			r.fail(o.opt("tournamentMode").file, o.keyPath("tournamentMode"),
				"must be %q, %q or %q", ModeRoundRobin, ModeManual, ModeRandom)
		}
	}
	if f, ok := given["replayFormat"].(string); ok && f != ReplayCompact && f != ReplayOfficial && f != ReplayBoth {
		r.fail(o.opt("replayFormat").file, o.keyPath("replayFormat"), "must be %q, %q or %q", ReplayCompact, ReplayOfficial, ReplayBoth)
	}
	if w, ok := given["waitForOffline"].(string); ok && w != WaitNever && w != WaitSeen && w != WaitAlways {
		r.fail(o.opt("waitForOffline").file, o.keyPath("waitForOffline"), "must be %q, %q or %q", WaitNever, WaitSeen, WaitAlways)
	}
	if launch, ok := given["launch"].(string); ok {
		// The syntax does not depend on the clock; the server parses again at start.
		spec, problem := parseLaunch(launch, time.Time{})
		if problem != "" {
			r.fail(o.opt("launch").file, o.keyPath("launch"), "%s", problem)
		} else if spec.Kind == LaunchAfterDelay && spec.Note != "" {
			r.warn(o.opt("launch").file, o.keyPath("launch"), "%s", spec.Note)
		}
	}
	if level, ok := given["logLevel"].(string); ok && !slices.Contains(logLevels, level) {
		// The Java server prints an unknown level like "normal" (docs/config.md, "Logging").
		r.warn(o.opt("logLevel").file, o.keyPath("logLevel"), "unknown log level %q, using \"normal\"", level)
		given["logLevel"] = "normal"
	}
}
