//go:build !unix

package compact

import "errors"

const rawWriteSupported = false

func appendRaw(uintptr, []byte) (int, error) {
	return 0, errors.New("compact: raw writes are not supported here")
}
