//go:build !unix

package server

import "errors"

// Elsewhere sessions use their connection's ordinary Read and Write.
const rawIOSupported = false

var errNoRawIO = errors.New("server: raw socket I/O only on unix")

func rawRead(uintptr, []byte) (int, error)  { return 0, errNoRawIO }
func rawWrite(uintptr, []byte) (int, error) { return 0, errNoRawIO }
