package tournament

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Merged is what MergeManifests collects from several folders.
type Merged struct {
	Teams       []string    // every team of the folders, in order of appearance
	Simulations []SimRecord // the completed simulations, each once
	Sources     []string    // the path each of Simulations was read from
	// Notes name the folders whose tournament or match is not finished
	// (they are merged too).
	Notes []string
	// Warnings name the folders that hold the same simulation of the same
	// line-up: two runs of one tournament (or of one match), whose
	// standings add up (a team would have played twice as often as the
	// config says).
	Warnings []string
}

// MergeManifests collects the completed simulations of several tournament
// or match folders (or their manifest files). All must come from the same
// config (one tournament split into matches); a simulation found twice (a
// folder named twice: same name and index) counts once. It is the merge of
// "massim standings" and of a league's standings.
func MergeManifests(paths []string) (Merged, error) {
	var m Merged
	var checksum, first string
	seen := map[string]bool{}
	playedIn := map[string][]string{} // simulation of a line-up → the folders that played it
	for _, p := range paths {
		man, err := ReadManifest(p)
		if err != nil {
			return Merged{}, err
		}
		if checksum == "" {
			checksum, first = man.ConfigChecksum, p
		} else if man.ConfigChecksum != checksum {
			return Merged{}, fmt.Errorf("tournament: %s was played with a different config than %s (checksum %s, not %s): "+
				"standings only merge the matches of one tournament", p, first, man.ConfigChecksum, checksum)
		}
		if man.State != StateFinished {
			m.Notes = append(m.Notes, fmt.Sprintf("%s is %s (%d simulations so far)", p, man.State, len(man.Simulations)))
		}
		for _, t := range man.Teams {
			if !slices.Contains(m.Teams, t) {
				m.Teams = append(m.Teams, t)
			}
		}
		for _, s := range man.Simulations {
			key := s.Name + "#" + strconv.Itoa(s.Index)
			if seen[key] {
				continue
			}
			seen[key] = true
			m.Simulations = append(m.Simulations, s)
			m.Sources = append(m.Sources, p)
			slot := fmt.Sprintf("simulation %d of match %d (%s)", s.Index, s.Match, strings.Join(s.Teams(), " vs "))
			if !slices.Contains(playedIn[slot], p) {
				playedIn[slot] = append(playedIn[slot], p)
			}
		}
	}
	for _, slot := range slices.Sorted(maps.Keys(playedIn)) {
		if dirs := playedIn[slot]; len(dirs) > 1 {
			m.Warnings = append(m.Warnings, fmt.Sprintf("%s was played in %d folders (%s): the standings count each; "+
				"name the folders of one run only", slot, len(dirs), strings.Join(dirs, ", ")))
		}
	}
	return m, nil
}
