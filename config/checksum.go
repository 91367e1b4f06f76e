package config

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"slices"
	"strconv"
)

// operationalKeys are server keys that say how to run the server, not what
// is played: an organiser may change them when restarting a crashed
// tournament (a busy port, another launch time, a new admin token), so they
// stay out of the checksum.
var operationalKeys = []string{"launch", "port", "backlog", "logLevel", "logPath", "adminToken", "frontDeskTimeout", "replayFormat",
	"silenceTimeout", "agentTLSCert", "agentTLSKey", "monitorTLSCert", "monitorTLSKey",
	"waitForOffline", "teamConnectTimeout", "teamQuietTime", "teamStopGrace", "teamRestarts", "teamLogLimit",
	"teamSandbox", "teamCPUs", "teamMemoryMiB", "teamProcesses", "teamScratchMiB", "teamOpenFiles", "teamUIDs"}

// teamRunKeys are the keys of a team entry that say how the server starts
// the team's agents (docs/config.md, "Team commands"), not who plays: like
// agents connecting by hand, which the checksum cannot see either, a team
// may fix its command or move its folder between the runs of a tournament.
var teamRunKeys = []string{"command", "dir", "env", "image"}

// Checksum identifies what a tournament plays: "sha256:" and the hex SHA-256
// of the expanded config (every include inserted, keys in file order, the
// server block without its operational keys launch, port, backlog, logLevel,
// logPath, adminToken, frontDeskTimeout, replayFormat, waitForOffline, the team command
// keys, silenceTimeout and the TLS files; the teams without their command, dir and env)
// followed by the content of every map bitmap and
// setup file the match entries name. A resumed tournament must have the same
// checksum as the one it continues.
func (c *Config) Checksum() (string, error) {
	h := sha256.New()
	h.Write(c.digest)
	var seen []string
	for i, m := range c.Match {
		for _, p := range []string{m.Grid.File, m.Setup} {
			if p == "" || slices.Contains(seen, p) {
				continue
			}
			seen = append(seen, p)
			data, err := c.ReadFile(p)
			if err != nil {
				return "", fmt.Errorf("config: checksum: match[%d]: %w", i, err)
			}
			writeString(h, p)
			writeString(h, string(data))
		}
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}

// treeDigest hashes an expanded config tree canonically: whitespace,
// formatting and the split into include files do not matter; values, key
// order and numbers as written do.
func treeDigest(root *node) []byte {
	h := sha256.New()
	hashNode(h, root, true)
	return h.Sum(nil)
}

func hashNode(h hash.Hash, n *node, root bool) {
	switch n.kind {
	case kindNull:
		h.Write([]byte{'n'})
	case kindBool:
		h.Write([]byte{'b', boolByte(n.boolean)})
	case kindNumber:
		h.Write([]byte{'d'})
		writeString(h, n.text)
	case kindString:
		h.Write([]byte{'s'})
		writeString(h, n.text)
	case kindArray:
		h.Write([]byte{'['})
		writeString(h, strconv.Itoa(len(n.elems)))
		for _, e := range n.elems {
			hashNode(h, e, false)
		}
	case kindObject:
		h.Write([]byte{'{'})
		for _, m := range n.members {
			writeString(h, m.key)
			if root && m.key == "server" && m.value.kind == kindObject {
				hashWithout(h, m.value, operationalKeys)
				continue
			}
			if root && m.key == "teams" && m.value.kind == kindObject {
				hashTeams(h, m.value)
				continue
			}
			hashNode(h, m.value, false)
		}
		h.Write([]byte{'}'})
	}
}

// hashWithout hashes an object without the given keys.
func hashWithout(h hash.Hash, n *node, skip []string) {
	h.Write([]byte{'{'})
	for _, m := range n.members {
		if slices.Contains(skip, m.key) {
			continue
		}
		writeString(h, m.key)
		hashNode(h, m.value, false)
	}
	h.Write([]byte{'}'})
}

// hashTeams hashes the teams block without the team command keys.
func hashTeams(h hash.Hash, n *node) {
	h.Write([]byte{'{'})
	for _, m := range n.members {
		writeString(h, m.key)
		if m.value.kind == kindObject {
			hashWithout(h, m.value, teamRunKeys)
		} else {
			hashNode(h, m.value, false)
		}
	}
	h.Write([]byte{'}'})
}

// writeString writes s with its length first, so that no two different
// sequences of strings hash the same bytes.
func writeString(h hash.Hash, s string) {
	h.Write([]byte(strconv.Itoa(len(s))))
	h.Write([]byte{':'})
	h.Write([]byte(s))
}

func boolByte(b bool) byte {
	if b {
		return '1'
	}
	return '0'
}
