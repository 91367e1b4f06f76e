package rating

import "math"

// cholesky factors a symmetric positive definite matrix a = L·Lᵀ. The
// information matrix always is one: the prior adds a positive diagonal to
// a positive semidefinite sum.
func cholesky(a [][]float64) [][]float64 {
	n := len(a)
	l := make([][]float64, n)
	for i := range l {
		l[i] = make([]float64, n)
	}
	for i := range n {
		for j := 0; j <= i; j++ {
			sum := a[i][j]
			for k := range j {
				sum -= l[i][k] * l[j][k]
			}
			if i == j {
				l[i][i] = math.Sqrt(math.Max(sum, 1e-300))
			} else {
				l[i][j] = sum / l[j][j]
			}
		}
	}
	return l
}

// solveCholesky solves L·Lᵀ·x = b.
func solveCholesky(l [][]float64, b []float64) []float64 {
	n := len(l)
	y := make([]float64, n)
	for i := range n {
		sum := b[i]
		for k := range i {
			sum -= l[i][k] * y[k]
		}
		y[i] = sum / l[i][i]
	}
	x := make([]float64, n)
	for i := n - 1; i >= 0; i-- {
		sum := y[i]
		for k := i + 1; k < n; k++ {
			sum -= l[k][i] * x[k]
		}
		x[i] = sum / l[i][i]
	}
	return x
}

// solveSPD solves a·x = b for a symmetric positive definite a.
func solveSPD(a [][]float64, b []float64) []float64 {
	return solveCholesky(cholesky(a), b)
}

// invertSPD inverts a symmetric positive definite matrix.
func invertSPD(a [][]float64) [][]float64 {
	l := cholesky(a)
	n := len(a)
	inv := make([][]float64, n)
	for j := range n {
		e := make([]float64, n)
		e[j] = 1
		col := solveCholesky(l, e)
		for i := range n {
			if inv[i] == nil {
				inv[i] = make([]float64, n)
			}
			inv[i][j] = col[i]
		}
	}
	return inv
}
