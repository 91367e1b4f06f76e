package config

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseLaunch(t *testing.T) {
	loc := time.FixedZone("test", 2*3600)
	now := time.Date(2022, 9, 22, 14, 30, 15, 0, loc)
	tests := []struct {
		in   string
		want LaunchSpec
	}{
		{"key", LaunchSpec{Kind: LaunchOnKey}},
		{"60s", LaunchSpec{Kind: LaunchAfterDelay, Delay: time.Minute, At: now.Add(time.Minute)}},
		{"0s", LaunchSpec{Kind: LaunchAfterDelay, At: now}},
		{"xs", LaunchSpec{Kind: LaunchAfterDelay, At: now, Note: `launch "xs": "x" is not a number of seconds, starting now`}},
		{"s", LaunchSpec{Kind: LaunchAfterDelay, At: now, Note: `launch "s": "" is not a number of seconds, starting now`}},
		{"-5s", LaunchSpec{Kind: LaunchAfterDelay, At: now, Note: `launch "-5s": negative delay, starting now`}},
		{"99999999999999s", LaunchSpec{Kind: LaunchAfterDelay, At: now, Note: `launch "99999999999999s": "99999999999999" is not a number of seconds, starting now`}},
		{"15:00", LaunchSpec{Kind: LaunchAtTime, At: time.Date(2022, 9, 22, 15, 0, 0, 0, loc), Delay: 29*time.Minute + 45*time.Second}},
		{"9:05", LaunchSpec{Kind: LaunchAtTime, At: now, Note: `launch "9:05": that time is already past today, starting now`}},
		{"14:30", LaunchSpec{Kind: LaunchAtTime, At: now, Note: `launch "14:30": that time is already past today, starting now`}},
		{"23:59", LaunchSpec{Kind: LaunchAtTime, At: time.Date(2022, 9, 22, 23, 59, 0, 0, loc), Delay: 9*time.Hour + 28*time.Minute + 45*time.Second}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseLaunch(tt.in, now)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestParseLaunchErrors(t *testing.T) {
	now := time.Date(2022, 9, 22, 14, 30, 0, 0, time.UTC)
	for in, want := range map[string]string{
		"":      `launch "": must be "key", "<N>s" (e.g. "60s") or "HH:mm"`,
		"KEY":   `launch "KEY": must be "key", "<N>s" (e.g. "60s") or "HH:mm"`,
		"5m":    `launch "5m": must be "key", "<N>s" (e.g. "60s") or "HH:mm"`,
		"24:00": `launch "24:00": not a time of day (HH:mm, 00:00 to 23:59)`,
		"12:60": `launch "12:60": not a time of day (HH:mm, 00:00 to 23:59)`,
		"12:5":  `launch "12:5": must be "key", "<N>s" (e.g. "60s") or "HH:mm"`,
	} {
		_, err := ParseLaunch(in, now)
		assert.EqualError(t, err, "config: "+want)
	}
}
