package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/rs/zerolog"

	"github.com/massim-go/massim/internal/filestamp"
)

// logTimeFormat is the time stamp of JSON log lines: RFC 3339 with
// milliseconds. zerolog's default (whole seconds) made every console time
// end in .000, as the console writer parses the JSON time back.
const logTimeFormat = "2006-01-02T15:04:05.000Z07:00"

func init() {
	// A package-level setting of zerolog, set once before any logger exists
	// (in init, so that tests running commands concurrently never race on it).
	zerolog.TimeFieldFormat = logTimeFormat
}

// logLevels are the accepted log levels, MASSim's names.
var logLevels = map[string]zerolog.Level{
	"debug":    zerolog.DebugLevel,
	"normal":   zerolog.InfoLevel,
	"error":    zerolog.ErrorLevel,
	"critical": zerolog.ErrorLevel,
}

// logFlags are the logging flags every subcommand shares.
type logFlags struct {
	format string
	level  string
}

// register adds -log-format and -log-level; dflt says what an absent
// -log-level means for this command (default "normal": a command that
// reads no config must not speak of one).
func (l *logFlags) register(fs *flag.FlagSet, dflt ...string) {
	level := "normal"
	if len(dflt) > 0 {
		level = dflt[0]
	}
	fs.StringVar(&l.format, "log-format", "console", "log format: console (human-readable) or json")
	fs.StringVar(&l.level, "log-level", "", "log level: debug, normal, error, critical (default: "+level+")")
}

// check validates the flags before anything else is done, so that a typo
// is a usage error instead of a run at the wrong level.
func (l *logFlags) check() error {
	if _, ok := logLevels[l.level]; l.level != "" && !ok {
		return fmt.Errorf("-log-level %q: want debug, normal, error or critical", l.level)
	}
	if l.format != "console" && l.format != "json" {
		return fmt.Errorf("-log-format %q: want console or json", l.format)
	}
	return nil
}

// newLogger builds the logger; configLevel is the config's logLevel
// (docs/config.md, "server"; the config loader already replaced an unknown
// one by normal), overridden by the flag; logDir adds a log file of JSON
// lines when not empty. Console output has colours only on a terminal.
func (l *logFlags) newLogger(stderr io.Writer, configLevel, logDir string) (zerolog.Logger, func(), error) {
	if err := l.check(); err != nil {
		return zerolog.Nop(), nil, err
	}
	level := l.level
	if level == "" {
		level = configLevel
	}
	zl, ok := logLevels[level]
	if !ok {
		zl = zerolog.InfoLevel
	}
	// One write per line, under a lock: the server logs from many
	// goroutines, and not every writer (a test's buffer) is safe for that.
	var out io.Writer = zerolog.SyncWriter(stderr)
	if l.format == "console" {
		out = zerolog.ConsoleWriter{Out: out, TimeFormat: "15:04:05.000", NoColor: colourless(stderr)}
	}
	closeFile := func() {}
	if logDir != "" {
		if err := os.MkdirAll(logDir, 0o755); err != nil {
			return zerolog.Nop(), nil, fmt.Errorf("create log folder %s: %w", logDir, err)
		}
		name := filepath.Join(logDir, "MASSim-log-"+filestamp.Format(time.Now())+".log")
		f, err := os.OpenFile(name, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			return zerolog.Nop(), nil, fmt.Errorf("open log file: %w", err)
		}
		lf := &logFile{f: f, console: stderr}
		out = zerolog.MultiLevelWriter(out, lf)
		closeFile = func() { _ = lf.Close() }
	}
	return zerolog.New(out).Level(zl).With().Timestamp().Logger(), closeFile, nil
}
