package sim

import (
	"strconv"
	"strings"
)

// CompactAccounts writes account names briefly: names that differ only in
// a trailing number are merged into ranges, in the order given
// ("agentA1-3, agentA7, agentB12"), so a status line or a log line stays
// readable with hundreds of agents.
func CompactAccounts(names []string) string {
	var b strings.Builder
	for i := 0; i < len(names); {
		stem, n, ok := splitNumber(names[i])
		j := i + 1
		if ok {
			for j < len(names) {
				s, m, ok := splitNumber(names[j])
				if !ok || s != stem || m != n+(j-i) {
					break
				}
				j++
			}
		}
		if b.Len() > 0 {
			b.WriteString(", ")
		}
		b.WriteString(names[i])
		if j-i > 1 {
			b.WriteString("-" + strconv.Itoa(n+j-i-1))
		}
		i = j
	}
	return b.String()
}

// splitNumber splits "agentA12" into "agentA" and 12.
func splitNumber(name string) (stem string, n int, ok bool) {
	i := len(name)
	for i > 0 && name[i-1] >= '0' && name[i-1] <= '9' {
		i--
	}
	if i == len(name) || len(name)-i > 9 {
		return name, 0, false
	}
	n, err := strconv.Atoi(name[i:])
	return name[:i], n, err == nil
}
