package config

import (
	"strconv"
	"strings"
)

// keyPath joins a parent key path and an object key. Keys that are not plain
// words (team names may contain dots or blanks) are written in brackets and
// quoted, so a path stays unambiguous: teams["GOAL.DTU"].password.
func keyPath(parent, key string) string {
	if !isPlainKey(key) {
		return parent + "[" + strconv.Quote(key) + "]"
	}
	if parent == "" {
		return key
	}
	return parent + "." + key
}

// indexPath appends an array index to a key path: match[0].
func indexPath(parent string, i int) string {
	return parent + "[" + strconv.Itoa(i) + "]"
}

func isPlainKey(key string) bool {
	if key == "" {
		return false
	}
	return strings.IndexFunc(key, func(r rune) bool {
		return !(r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}) < 0
}
