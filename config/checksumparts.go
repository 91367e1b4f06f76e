package config

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
)

// ChecksumParts are short digests of the parts of what Checksum covers, by
// key path: every key of the server block that is part of the checksum
// ("server.agentTimeout"), every key of every match entry
// ("match[1].steps"), every team ("teams.A"), the other top-level keys, and
// every map bitmap and setup file ("file maps/a.bmp"). Two configs with
// different checksums differ in at least one part, so a refused resume can
// name what changed (DifferingParts).
func (c *Config) ChecksumParts() (map[string]string, error) {
	parts := maps.Clone(c.parts)
	if parts == nil {
		parts = map[string]string{}
	}
	for i, m := range c.Match {
		for _, p := range []string{m.Grid.File, m.Setup} {
			if p == "" {
				continue
			}
			data, err := c.ReadFile(p)
			if err != nil {
				return nil, fmt.Errorf("config: checksum: match[%d]: %w", i, err)
			}
			sum := sha256.Sum256(data)
			parts["file "+p] = hex.EncodeToString(sum[:8])
		}
	}
	return parts, nil
}

// DifferingParts lists, sorted, the key paths whose parts differ between two
// ChecksumParts (present in one only, or with another digest).
func DifferingParts(a, b map[string]string) []string {
	var out []string
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			out = append(out, k)
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// treeParts digests the parts of an expanded config tree (ChecksumParts
// without the files).
func treeParts(root *node) map[string]string {
	parts := map[string]string{}
	for _, m := range root.members {
		switch {
		case m.key == "server" && m.value.kind == kindObject:
			for _, s := range m.value.members {
				if !slices.Contains(operationalKeys, s.key) {
					parts["server."+s.key] = nodeDigest(s.value)
				}
			}
		case m.key == "match" && m.value.kind == kindArray:
			for i, e := range m.value.elems {
				if e.kind != kindObject {
					parts[fmt.Sprintf("match[%d]", i)] = nodeDigest(e)
					continue
				}
				for _, k := range e.members {
					parts[fmt.Sprintf("match[%d].%s", i, k.key)] = nodeDigest(k.value)
				}
			}
		case m.key == "teams" && m.value.kind == kindObject:
			order := &node{kind: kindArray}
			for _, t := range m.value.members {
				parts["teams."+t.key] = teamDigest(t.value)
				order.elems = append(order.elems, &node{kind: kindString, text: t.key})
			}
			parts["teams (order)"] = nodeDigest(order)
		default:
			parts[m.key] = nodeDigest(m.value)
		}
	}
	return parts
}

// teamDigest is a short digest of a team entry without its command keys,
// which Checksum leaves out too.
func teamDigest(n *node) string {
	if n.kind != kindObject {
		return nodeDigest(n)
	}
	h := sha256.New()
	hashWithout(h, n, teamRunKeys)
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// nodeDigest is a short digest of one value, hashed as Checksum hashes it.
func nodeDigest(n *node) string {
	h := sha256.New()
	hashNode(h, n, false)
	return hex.EncodeToString(h.Sum(nil)[:8])
}
