package sim

// Rerun starts a simulation from a recorded one (docs/practice.md, "Start
// from any step"): the world is built from the recorded match entry and
// seed, steps 0 … Step are played with the recorded answers without asking
// the agents (the observers see and record them as usual), and the agents
// play on from step Step+1, with sim-start first. The config must hold
// exactly the recorded match entry (its seed set) and the recorded teams,
// and the server must play one simulation.
type Rerun struct {
	// Step is the last step played from the record; −1 plays none.
	Step int
	// Answers holds the recorded answers of steps 0 … Step (at least),
	// in the world's agent order.
	Answers [][]Answer
	// Files serves the files the match entry names (grid.file, setup) in
	// place of the config.
	Files FileReader
}
