package loadtest

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"net"
	"slices"
	"sync"
	"time"
)

// FloorReport is what "massim bench -floor" measured.
type FloorReport struct {
	Agents     int `json:"agents"`
	Steps      int `json:"steps"`
	FrameBytes int `json:"frameBytes"`
	Answers    int `json:"answers"`
	// CPU of the measuring thread per step, and its split.
	CPUPerStepMS  float64 `json:"cpuPerStepMs"`
	UserPerStepMS float64 `json:"userPerStepMs"`
	SysPerStepMS  float64 `json:"sysPerStepMs"`
	CPUPerAgentUS float64 `json:"cpuPerAgentUs"`
	WallPerStepMS float64 `json:"wallPerStepMs"`
}

func (r *FloorReport) fill(user, sys, wall time.Duration) {
	steps := float64(r.Steps)
	r.UserPerStepMS = float64(user) / 1e6 / steps
	r.SysPerStepMS = float64(sys) / 1e6 / steps
	r.CPUPerStepMS = r.UserPerStepMS + r.SysPerStepMS
	r.CPUPerAgentUS = r.CPUPerStepMS * 1e3 / float64(r.Agents)
	r.WallPerStepMS = float64(wall) / 1e6 / steps
}

// PrintFloorReport writes the floor of the load called name.
func PrintFloorReport(w io.Writer, name string, r FloorReport) {
	fmt.Fprintf(w, "I/O floor of %s: %d agents × %d steps, one %d-byte write and one answer read per agent and step\n",
		name, r.Agents, r.Steps, r.FrameBytes)
	fmt.Fprintf(w, "  CPU per step %.3f ms (user %.3f, system %.3f), %.2f µs per agent; wall per step %.3f ms\n",
		r.CPUPerStepMS, r.UserPerStepMS, r.SysPerStepMS, r.CPUPerAgentUS, r.WallPerStepMS)
	fmt.Fprintln(w, "  (a lower bound for any server on this machine: no world, percepts or JSON, one thread, raw system calls)")
}

// answerFrames is the agents' side of the floor measurement: n connections,
// each answering every 0-terminated frame with one short action frame until
// the measurement shuts it down.
func answerFrames(addr string, n int) error {
	answer := []byte(`{"type":"action","content":{"id":0,"type":"skip","p":[]}}` + "\x00")
	var wg sync.WaitGroup
	defer wg.Wait()
	for range n {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			return fmt.Errorf("bench: floor: dial: %w", err)
		}
		wg.Go(func() {
			defer conn.Close()
			r := bufio.NewReaderSize(conn, MaxFloorFrame)
			for {
				if _, err := r.ReadSlice(0); err != nil {
					return // shut down by the measurement
				}
				if _, err := conn.Write(answer); err != nil {
					return
				}
			}
		})
	}
	return nil
}

// MaxFloorFrame is the largest request-action size -floor writes.
const MaxFloorFrame = 64 << 10

// MeasureFloor measures the protocol's I/O floor of a load runs times and
// returns the run with the median CPU per step.
func MeasureFloor(agents, steps, frameBytes, runs int) (FloorReport, error) {
	if frameBytes < 2 || frameBytes > MaxFloorFrame {
		return FloorReport{}, fmt.Errorf("-floor-bytes %d: want 2…%d", frameBytes, MaxFloorFrame)
	}
	var reports []FloorReport
	for range runs {
		r, err := measureIOFloor(agents, steps, frameBytes)
		if err != nil {
			return FloorReport{}, err
		}
		reports = append(reports, r)
	}
	slices.SortFunc(reports, func(a, b FloorReport) int { return cmp.Compare(a.CPUPerStepMS, b.CPUPerStepMS) })
	return reports[len(reports)/2], nil
}
