package maps

// ObstacleRatio is the share of true cells, e.g. of a generated obstacle map.
func ObstacleRatio(cells []bool) float64 {
	if len(cells) == 0 {
		return 0
	}
	n := 0
	for _, c := range cells {
		if c {
			n++
		}
	}
	return float64(n) / float64(len(cells))
}
