//go:build !linux

package main

import "errors"

func measureIOFloor(agents, steps, frameBytes int) (floorReport, error) {
	return floorReport{}, errors.New("bench: -floor measures with epoll and per-thread CPU times: Linux only")
}
