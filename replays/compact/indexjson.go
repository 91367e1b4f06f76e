package compact

import "strconv"

// appendJSON appends the index as encoding/json writes it (the same bytes:
// TestIndexJSON_SameAsEncodingJSON), without reflection. A server writes
// one index per replay, at its end: with encoding/json, building the
// encoder of these types and walking every step's scores through
// reflection was a noticeable part of the replay's cost on short matches
// (`massim bench -scenario S1`: ~0.2 ms of a match's ~170 ms of server CPU).
func (x *Index) appendJSON(b []byte) []byte {
	b = append(b, `{"complete":`...)
	b = strconv.AppendBool(b, x.Complete)
	b = append(b, `,"last":`...)
	b = strconv.AppendInt(b, int64(x.Last), 10)
	b = append(b, `,"chunks":`...)
	b = appendJSONList(b, x.Chunks, func(b []byte, c ChunkRef) []byte {
		b = append(b, `{"offset":`...)
		b = strconv.AppendInt(b, c.Offset, 10)
		b = append(b, `,"first":`...)
		b = strconv.AppendInt(b, int64(c.First), 10)
		b = append(b, `,"count":`...)
		b = strconv.AppendInt(b, int64(c.Count), 10)
		b = append(b, `,"keyframe":`...)
		b = strconv.AppendBool(b, c.Keyframe)
		return append(b, '}')
	})
	b = append(b, `,"scores":`...)
	b = appendJSONList(b, x.Scores, func(b []byte, scores []int64) []byte {
		return appendJSONList(b, scores, func(b []byte, v int64) []byte { return strconv.AppendInt(b, v, 10) })
	})
	return append(b, '}')
}

// appendJSONList appends list as a JSON array of elem's elements; a nil
// list is null, as encoding/json writes nil slices.
func appendJSONList[T any](b []byte, list []T, elem func([]byte, T) []byte) []byte {
	if list == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, v := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = elem(b, v)
	}
	return append(b, ']')
}
