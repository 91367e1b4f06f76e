package config

import (
	"slices"
	"strings"
)

// nearestKey suggests the known key an unknown one was probably meant to
// be: the closest by edit distance (ignoring case) when the distance is
// small for the key's length, or a known key the unknown one wraps in a
// short prefix or suffix ("NOsetup" → setup, "old-server" → server: keys
// switched off by renaming). It returns "" when nothing is close. Known keys are compared
// in sorted order, so ties always give the same answer.
func nearestKey(unknown string, known []string) string {
	u := strings.ToLower(unknown)
	best, bestDist := "", -1
	for _, k := range slices.Sorted(slices.Values(known)) {
		l := strings.ToLower(k)
		d := editDistance(u, l)
		if d == 0 {
			return k // differs only in case
		}
		if bestDist < 0 || d < bestDist {
			best, bestDist = k, d
		}
	}
	if best == "" {
		return ""
	}
	if bestDist <= max(2, len(unknown)/4) {
		return best
	}
	const maxAffix = 4 // "NO", "old-", "_x"
	for _, k := range slices.Sorted(slices.Values(known)) {
		l := strings.ToLower(k)
		if len(k) < 4 || len(u)-len(l) > maxAffix {
			continue
		}
		if strings.HasPrefix(u, l) || strings.HasSuffix(u, l) {
			return k
		}
	}
	return ""
}

// editDistance is the Levenshtein distance of two strings, by bytes
// (config keys are ASCII).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
