package scenario

// LogEvent is a world event of the snapshot's top-level "events" list.
type LogEvent struct {
	Type string `json:"type"`
	Task string `json:"task"`
	Team string `json:"team"`
}
