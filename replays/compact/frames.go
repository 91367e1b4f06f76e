package compact

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
)

// SegmentFrames returns segment g's chunks as they are stored, each one
// zstd frame whose checksum held, and the size of their records once
// decompressed: what SegmentRecords reads, still compressed. The frames
// one after another are a valid zstd stream of the segment's records, each
// preceded by its length (a uvarint), for a reader that decompresses them
// itself (the monitor sends them to browsers as Content-Encoding: zstd).
// On a damaged chunk it returns the frames before it and the error; the
// frames share the replay's memory.
func (r *Replay) SegmentFrames(g int) (frames [][]byte, rawSize int, err error) {
	for _, c := range r.Chunks {
		if r.segmentOf(c) != g {
			continue
		}
		h, payload, err := checkedPayload(r.data, int(c.Offset))
		if err != nil {
			return frames, rawSize, err
		}
		frames = append(frames, payload)
		rawSize += h.rawSize
	}
	if len(frames) == 0 {
		return nil, 0, fmt.Errorf("segment %d: %w", g, ErrNoStep)
	}
	return frames, rawSize, nil
}

// checkedPayload returns the chunk at off, its payload still compressed
// once the header and the payload's checksum held.
func checkedPayload(data []byte, off int) (chunkHeader, []byte, error) {
	h, err := parseChunkHeader(data[min(off, len(data)):])
	if err != nil {
		return h, nil, err
	}
	end := off + chunkHeaderSize + h.size
	if end > len(data) {
		return h, nil, fmt.Errorf("chunk at byte %d cut off (%d of %d bytes): %w", off, len(data)-off-chunkHeaderSize, h.size, ErrDamaged)
	}
	payload := data[off+chunkHeaderSize : end]
	if crc32.Checksum(payload, castagnoli) != h.checksum {
		return h, nil, fmt.Errorf("chunk at byte %d: checksum mismatch: %w", off, ErrDamaged)
	}
	return h, payload, nil
}

// AppendRawFrame appends src to dst as one zstd frame of raw blocks (no
// compression): for a few bytes to put between stored frames in one zstd
// stream.
func AppendRawFrame(dst, src []byte) []byte {
	dst = binary.LittleEndian.AppendUint32(dst, zstdMagic)
	dst = append(dst, 0xA0) // single segment, 4-byte content size, no checksum
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(src)))
	for {
		n := min(len(src), maxBlockContent)
		dst = appendBlockHeader(dst, n == len(src), blockRaw, n)
		dst = append(dst, src[:n]...)
		src = src[n:]
		if len(src) == 0 {
			return dst
		}
	}
}
