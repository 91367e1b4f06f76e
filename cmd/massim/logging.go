package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/rs/zerolog"
)

// logFlags are the logging flags every subcommand shares.
type logFlags struct {
	format string
	level  string
}

func (l *logFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&l.format, "log-format", "console", "log format: console (human-readable) or json")
	fs.StringVar(&l.level, "log-level", "", "log level: debug, normal, error, critical (default: the config's logLevel, else normal)")
}

// newLogger builds the logger; configLevel is the config's logLevel
// (docs/config.md, "Logging"), overridden by the flag; logDir adds a log file when not empty.
func (l *logFlags) newLogger(stderr io.Writer, configLevel, logDir string) (zerolog.Logger, func(), error) {
	level := l.level
	if level == "" {
		level = configLevel
	}
	var out io.Writer
	switch l.format {
	case "console":
		out = zerolog.ConsoleWriter{Out: stderr, TimeFormat: "15:04:05.000"}
	case "json":
		out = stderr
	default:
		return zerolog.Nop(), nil, fmt.Errorf("-log-format %q: want console or json", l.format)
	}
	closeFile := func() {}
	if logDir != "" {
		if err := os.MkdirAll(logDir, 0o755); err != nil {
			return zerolog.Nop(), nil, fmt.Errorf("create log folder %s: %w", logDir, err)
		}
		name := filepath.Join(logDir, "MASSim-log-"+time.Now().Format("2006-01-02-15-04-05")+".log")
		f, err := os.OpenFile(name, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			return zerolog.Nop(), nil, fmt.Errorf("open log file: %w", err)
		}
		out = zerolog.MultiLevelWriter(out, f)
		closeFile = func() { _ = f.Close() }
	}
	return zerolog.New(out).Level(zerologLevel(level)).With().Timestamp().Logger(), closeFile, nil
}

// zerologLevel maps MASSim's log levels: debug → Debug, normal (or anything
// unknown) → Info, error and critical → Error.
func zerologLevel(level string) zerolog.Level {
	switch level {
	case "debug":
		return zerolog.DebugLevel
	case "error", "critical":
		return zerolog.ErrorLevel
	}
	return zerolog.InfoLevel
}
