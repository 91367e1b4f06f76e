package compact

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
)

// Extension is the file name extension of compact replays.
const Extension = ".mreplay"

// Magic starts every compact replay file; the byte after it is the version.
const (
	Magic   = "MASSIMRP"
	Version = 1
)

// The file starts with the magic and the version byte, then chunks.
const fileHeaderSize = len(Magic) + 1

// Chunk kinds.
const (
	ChunkMeta  byte = 'M' // the match record (JSON)
	ChunkSteps byte = 'S' // step records of one segment
	ChunkIndex byte = 'I' // the index (JSON), last before the footer
)

// chunkFlagKeyframe marks a steps chunk whose first record is a keyframe.
const chunkFlagKeyframe = 1

// Chunk header layout: "MRCK", kind, flags, two zero bytes, first step
// (int32), records (uint32), raw size, payload size, CRC-32C of the
// payload, CRC-32C of the header's first 28 bytes; little endian.
const (
	chunkMagic      = "MRCK"
	chunkHeaderSize = 32
)

// Footer: offset of the index chunk (uint64) and footerMagic.
const (
	footerMagic = "MRPINDEX"
	footerSize  = 16
)

// DefaultChunkSteps is the default number of steps per chunk: what a crash
// may lose at most.
const DefaultChunkSteps = 10

// maxPayload bounds a chunk's sizes, so a damaged header cannot make a
// reader allocate much.
const maxPayload = 256 << 20

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// ErrDamaged is wrapped by the errors about damaged or cut-off parts.
var ErrDamaged = errors.New("damaged")

// chunkHeader is a decoded chunk header.
type chunkHeader struct {
	kind     byte
	flags    byte
	first    int
	count    int
	rawSize  int
	size     int
	checksum uint32
}

func (h chunkHeader) append(b []byte) []byte {
	start := len(b)
	b = append(b, chunkMagic...)
	b = append(b, h.kind, h.flags, 0, 0)
	b = binary.LittleEndian.AppendUint32(b, uint32(int32(h.first)))
	b = binary.LittleEndian.AppendUint32(b, uint32(h.count))
	b = binary.LittleEndian.AppendUint32(b, uint32(h.rawSize))
	b = binary.LittleEndian.AppendUint32(b, uint32(h.size))
	b = binary.LittleEndian.AppendUint32(b, h.checksum)
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b[start:], castagnoli))
}

// parseChunkHeader checks and decodes a header.
func parseChunkHeader(b []byte) (chunkHeader, error) {
	if len(b) < chunkHeaderSize {
		return chunkHeader{}, fmt.Errorf("chunk header cut off: %w", ErrDamaged)
	}
	if string(b[:4]) != chunkMagic {
		return chunkHeader{}, fmt.Errorf("no chunk header: %w", ErrDamaged)
	}
	if crc32.Checksum(b[:28], castagnoli) != binary.LittleEndian.Uint32(b[28:32]) {
		return chunkHeader{}, fmt.Errorf("chunk header checksum mismatch: %w", ErrDamaged)
	}
	h := chunkHeader{kind: b[4], flags: b[5],
		first:    int(int32(binary.LittleEndian.Uint32(b[8:]))),
		count:    int(binary.LittleEndian.Uint32(b[12:])),
		rawSize:  int(binary.LittleEndian.Uint32(b[16:])),
		size:     int(binary.LittleEndian.Uint32(b[20:])),
		checksum: binary.LittleEndian.Uint32(b[24:])}
	if h.size > maxPayload || h.rawSize > maxPayload {
		return chunkHeader{}, fmt.Errorf("chunk of %d bytes (%d raw) is too large: %w", h.size, h.rawSize, ErrDamaged)
	}
	return h, nil
}
