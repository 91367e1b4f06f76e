package replays

import (
	"strconv"
	"time"

	"github.com/massim-go/massim/internal/filestamp"
)

// StaticFile is the name of the static world file of a replay folder.
const StaticFile = "static.json"

// GroupSize is the number of steps per group file.
const GroupSize = 5

// GroupOf is the first step of the group file holding step: 5·⌊step/5⌋ for
// step ≥ 0, and 0 for the initial snapshot -1 (docs/replays.md, "Group files").
func GroupOf(step int) int {
	if step <= 0 {
		return 0
	}
	return step / GroupSize * GroupSize
}

// GroupFile is the file name of the group starting at group.
func GroupFile(group int) string { return strconv.Itoa(group) + ".json" }

// FolderName is the folder of a simulation inside the replay path:
// <matchStart yyyy-MM-dd-HH-mm-ss>-<simName> (docs/replays.md, "Replay folders"), in local time
// like the official server.
func FolderName(matchStart time.Time, sim string) string {
	return filestamp.Format(matchStart) + "-" + sim
}
