//go:build !linux

package server

import "time"

// holdThread does nothing where the answers are not gathered by holding
// the thread (see answerPacer): a Go sleep would not gather them.
func holdThread(time.Duration) {}
