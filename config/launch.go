package config

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// LaunchKind says what starts the tournament (docs/config.md, "Launch").
type LaunchKind int

const (
	// LaunchOnKey waits for an empty line on standard input ("key").
	LaunchOnKey LaunchKind = iota + 1
	// LaunchAfterDelay starts after LaunchSpec.Delay ("<N>s").
	LaunchAfterDelay
	// LaunchAtTime starts at LaunchSpec.At, local time today ("HH:mm").
	LaunchAtTime
)

// LaunchSpec is a parsed server.launch value.
type LaunchSpec struct {
	Kind LaunchKind
	// Delay is how long to wait from now (timed kinds); 0 means start now.
	Delay time.Duration
	// At is the start time for LaunchAtTime (now + Delay for the others).
	At time.Time
	// Note explains a leniency of the Java server that was applied ("start now" for a bad
	// number of seconds or a time already past); the server should log it.
	Note string
}

var launchClock = regexp.MustCompile(`^(\d{1,2}):(\d{2})$`)

// ParseLaunch interprets server.launch at time now: "key", "<N>s" or
// "HH:mm". Like the Java server, a value ending in "s" whose N is not an integer means
// "start now" (with a Note), as does a negative N or a time of day already
// past. Anything else that is not "key" or a valid HH:mm is an error.
func ParseLaunch(s string, now time.Time) (LaunchSpec, error) {
	spec, problem := parseLaunch(s, now)
	if problem != "" {
		return LaunchSpec{}, fmt.Errorf("config: launch %q: %s", s, problem)
	}
	if spec.Note != "" {
		spec.Note = fmt.Sprintf("launch %q: %s", s, spec.Note)
	}
	return spec, nil
}

// parseLaunch is ParseLaunch with the problem (if any) as a bare reason.
func parseLaunch(s string, now time.Time) (spec LaunchSpec, problem string) {
	if s == "key" {
		return LaunchSpec{Kind: LaunchOnKey}, ""
	}
	if m := launchClock.FindStringSubmatch(s); m != nil {
		hour, _ := strconv.Atoi(m[1])
		minute, _ := strconv.Atoi(m[2])
		if hour > 23 || minute > 59 {
			return LaunchSpec{}, "not a time of day (HH:mm, 00:00 to 23:59)"
		}
		at := time.Date(now.Year(), now.Month(), now.Day(), hour, minute, 0, 0, now.Location())
		spec := LaunchSpec{Kind: LaunchAtTime, At: at, Delay: at.Sub(now)}
		if !at.After(now) {
			spec.At, spec.Delay = now, 0
			spec.Note = "that time is already past today, starting now"
		}
		return spec, ""
	}
	if digits, ok := strings.CutSuffix(s, "s"); ok {
		spec := LaunchSpec{Kind: LaunchAfterDelay, At: now}
		n, err := strconv.ParseInt(digits, 10, 64)
		switch {
		case err != nil || n > int64(time.Duration(1<<63-1)/time.Second):
			spec.Note = fmt.Sprintf("%q is not a number of seconds, starting now", digits)
		case n < 0:
			spec.Note = "negative delay, starting now"
		default:
			spec.Delay = time.Duration(n) * time.Second
			spec.At = now.Add(spec.Delay)
		}
		return spec, ""
	}
	return LaunchSpec{}, `must be "key", "<N>s" (e.g. "60s") or "HH:mm"`
}
