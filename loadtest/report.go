package loadtest

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"time"
)

// Report is what "massim bench" measured; -json prints it and
// -compare reads an earlier one.
type Report struct {
	Scenario string `json:"scenario"`
	Teams    int    `json:"teams"`
	Agents   int    `json:"agentsPerTeam"`
	Size     int    `json:"size"`
	Steps    int    `json:"steps"`
	Runs     int    `json:"runs"`

	Phases []Phase `json:"phases"`
	// CPUPerStepMS is the whole process's CPU (every phase) per step;
	// StepsCPUPerStepMS only that of the steps phase.
	CPUPerStepMS      float64 `json:"cpuPerStepMs"`
	StepsCPUPerStepMS float64 `json:"stepsCpuPerStepMs"`
	UserMS            float64 `json:"userMs"`
	SystemMS          float64 `json:"systemMs"`
	StepP50MS         float64 `json:"stepP50Ms"`
	StepP99MS         float64 `json:"stepP99Ms"`
	StepsPerSecond    float64 `json:"stepsPerSecond"`
	PeakRSSMB         float64 `json:"peakRssMb"`
	// MissedActions counts percepts that say the agent's previous action
	// did not reach the server in time (lastAction no_action).
	MissedActions int64 `json:"missedActions"`
	// ReplayBytesPerStep is the size of the replays written (-replays)
	// over the steps and the initial step.
	ReplayBytesPerStep float64 `json:"replayBytesPerStep,omitempty"`
}

// Phase is the wall time and server CPU of one phase of a run.
type Phase struct {
	Name     string  `json:"name"`
	WallMS   float64 `json:"wallMs"`
	UserMS   float64 `json:"userMs"`
	SystemMS float64 `json:"systemMs"`
}

// percentiles returns the 50th and 99th percentile in milliseconds.
func percentiles(ds []time.Duration) (p50, p99 float64) {
	if len(ds) == 0 {
		return 0, 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	at := func(q float64) float64 { return ms(s[min(len(s)-1, int(q*float64(len(s))))]) }
	return at(0.5), at(0.99)
}

// MedianReport takes the median of every figure over the runs.
func MedianReport(rs []Report) Report {
	out := rs[0]
	out.Runs = len(rs)
	if len(rs) == 1 {
		return out
	}
	med := func(f func(*Report) *float64) {
		v := make([]float64, len(rs))
		for i := range rs {
			v[i] = *f(&rs[i])
		}
		slices.Sort(v)
		*f(&out) = v[len(v)/2]
	}
	med(func(r *Report) *float64 { return &r.CPUPerStepMS })
	med(func(r *Report) *float64 { return &r.StepsCPUPerStepMS })
	med(func(r *Report) *float64 { return &r.UserMS })
	med(func(r *Report) *float64 { return &r.SystemMS })
	med(func(r *Report) *float64 { return &r.StepP50MS })
	med(func(r *Report) *float64 { return &r.StepP99MS })
	med(func(r *Report) *float64 { return &r.StepsPerSecond })
	med(func(r *Report) *float64 { return &r.PeakRSSMB })
	med(func(r *Report) *float64 { return &r.ReplayBytesPerStep })
	out.Phases = slices.Clone(out.Phases)
	for i := range out.Phases {
		med(func(r *Report) *float64 { return &r.Phases[i].WallMS })
		med(func(r *Report) *float64 { return &r.Phases[i].UserMS })
		med(func(r *Report) *float64 { return &r.Phases[i].SystemMS })
	}
	missed := make([]int64, len(rs))
	for i, r := range rs {
		missed[i] = r.MissedActions
	}
	out.MissedActions = slices.Max(missed)
	return out
}

// WriteJSON writes the report as indented JSON (-json).
func WriteJSON(w io.Writer, r Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return fmt.Errorf("bench: write report: %w", err)
	}
	return nil
}

// ReadReport reads a report written by WriteJSON (-compare).
func ReadReport(path string) (*Report, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("-compare: %w", err)
	}
	var r Report
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("-compare %s: not a bench -json report: %w", path, err)
	}
	return &r, nil
}

// PrintReport writes the report as text, a phase a line.
func PrintReport(w io.Writer, r Report) {
	fmt.Fprintf(w, "bench %s: %d teams × %d agents, %d×%d, %d steps", r.Scenario, r.Teams, r.Agents, r.Size, r.Size, r.Steps)
	if r.Runs > 1 {
		fmt.Fprintf(w, ", median of %d runs", r.Runs)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "%-18s %10s %10s %10s\n", "phase", "wall ms", "user ms", "system ms")
	for _, p := range r.Phases {
		fmt.Fprintf(w, "%-18s %10.1f %10.0f %10.0f\n", p.Name, p.WallMS, p.UserMS, p.SystemMS)
	}
	fmt.Fprintf(w, "server CPU/step    %.3f ms whole process (user %.0f ms, system %.0f ms); steps phase %.3f ms\n",
		r.CPUPerStepMS, r.UserMS, r.SystemMS, r.StepsCPUPerStepMS)
	fmt.Fprintf(w, "step time          p50 %.3f ms, p99 %.3f ms; %.1f steps/s\n", r.StepP50MS, r.StepP99MS, r.StepsPerSecond)
	if r.ReplayBytesPerStep > 0 {
		fmt.Fprintf(w, "replays           %.0f bytes per step\n", r.ReplayBytesPerStep)
	}
	fmt.Fprintf(w, "server peak RSS    %.1f MB\n", r.PeakRSSMB)
	fmt.Fprintf(w, "missed actions     %d\n", r.MissedActions)
}

// PrintComparison prints the figures of an earlier report beside this one.
func PrintComparison(w io.Writer, before, after Report, path string) {
	fmt.Fprintf(w, "compared with %s (%s: %d teams × %d agents, %d×%d, %d steps)\n",
		path, before.Scenario, before.Teams, before.Agents, before.Size, before.Size, before.Steps)
	if before.Teams != after.Teams || before.Agents != after.Agents || before.Size != after.Size || before.Steps != after.Steps {
		fmt.Fprintln(w, "warning: the loads differ")
	}
	fmt.Fprintf(w, "%-22s %10s %10s %8s\n", "figure", "before", "now", "now/before")
	row := func(name string, b, a float64) {
		ratio := "-"
		if b != 0 {
			ratio = fmt.Sprintf("%.2f", a/b)
		}
		fmt.Fprintf(w, "%-22s %10.3f %10.3f %8s\n", name, b, a, ratio)
	}
	row("CPU/step ms", before.CPUPerStepMS, after.CPUPerStepMS)
	row("steps CPU/step ms", before.StepsCPUPerStepMS, after.StepsCPUPerStepMS)
	row("user ms", before.UserMS, after.UserMS)
	row("system ms", before.SystemMS, after.SystemMS)
	row("step p50 ms", before.StepP50MS, after.StepP50MS)
	row("step p99 ms", before.StepP99MS, after.StepP99MS)
	row("peak RSS MB", before.PeakRSSMB, after.PeakRSSMB)
	for _, a := range after.Phases {
		for _, b := range before.Phases {
			if a.Name == b.Name {
				row(a.Name+" CPU ms", b.UserMS+b.SystemMS, a.UserMS+a.SystemMS)
			}
		}
	}
}
