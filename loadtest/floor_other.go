//go:build !linux

package loadtest

import "errors"

func measureIOFloor(agents, steps, frameBytes int) (FloorReport, error) {
	return FloorReport{}, errors.New("bench: -floor measures with epoll and per-thread CPU times: Linux only")
}
