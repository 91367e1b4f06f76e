package rating

import (
	"math"
)

// Elo-like scale of the reported ratings: Base + θ·Scale.
const (
	Base  = 1500.0
	Scale = 400 / math.Ln10
)

// Result is one game between two teams: Score is A's result against B, 1 a
// win, 0.5 a draw, 0 a loss.
type Result struct {
	A, B  string
	Score float64
}

// Rating is one team's fitted rating and its standard error, both on the
// Elo-like scale (Base, Scale), and the number of games it is fit from.
type Rating struct {
	Team   string  `json:"team"`
	Rating float64 `json:"rating"`
	Error  float64 `json:"ratingError"`
	Games  int     `json:"games"`
}

// Fitting stops when no θ moves by more than tolerance, or after
// maxIterations Newton steps (the likelihood is strictly concave, so
// Newton's method with a line search converges in a few steps; the bound
// only guards against a pathological input).
const (
	tolerance     = 1e-10
	maxIterations = 100
)

// Fit rates teams (in this order; teams named only in results are appended
// in order of appearance) from results; see the package comment for the
// model and the prior.
func Fit(teams []string, results []Result) []Rating {
	index := map[string]int{}
	var names []string
	add := func(t string) int {
		i, ok := index[t]
		if !ok {
			i = len(names)
			index[t] = i
			names = append(names, t)
		}
		return i
	}
	for _, t := range teams {
		add(t)
	}
	var games []game
	for _, r := range results {
		a, b := add(r.A), add(r.B)
		if a != b {
			games = append(games, game{a: a, b: b, score: r.Score})
		}
	}
	theta, info := maximize(len(names), games)
	cov := invertSPD(info)
	out := make([]Rating, len(names))
	for i, t := range names {
		out[i] = Rating{Team: t, Rating: Base + Scale*theta[i], Error: Scale * math.Sqrt(cov[i][i])}
	}
	for _, g := range games {
		out[g.a].Games++
		out[g.b].Games++
	}
	return out
}

type game struct {
	a, b  int
	score float64 // a's result
}

// sigmoid is the probability that a team θ stronger than its opponent wins.
func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// logSigmoid is log σ(x), accurate for large |x|.
func logSigmoid(x float64) float64 {
	if x < 0 {
		return x - math.Log1p(math.Exp(x))
	}
	return -math.Log1p(math.Exp(-x))
}

// logLikelihood of theta, the prior's virtual draws included.
func logLikelihood(theta []float64, games []game) float64 {
	ll := 0.0
	for _, g := range games {
		d := theta[g.a] - theta[g.b]
		ll += g.score*logSigmoid(d) + (1-g.score)*logSigmoid(-d)
	}
	for _, t := range theta {
		ll += 0.5*logSigmoid(t) + 0.5*logSigmoid(-t)
	}
	return ll
}

// gradientAndInformation returns the gradient of the log-likelihood and
// the observed Fisher information (its negative Hessian) at theta.
func gradientAndInformation(theta []float64, games []game) ([]float64, [][]float64) {
	n := len(theta)
	grad := make([]float64, n)
	info := make([][]float64, n)
	for i := range info {
		info[i] = make([]float64, n)
		p := sigmoid(theta[i]) // the virtual draw against θ = 0
		grad[i] += 0.5 - p
		info[i][i] += p * (1 - p)
	}
	for _, g := range games {
		p := sigmoid(theta[g.a] - theta[g.b])
		grad[g.a] += g.score - p
		grad[g.b] -= g.score - p
		w := p * (1 - p)
		info[g.a][g.a] += w
		info[g.b][g.b] += w
		info[g.a][g.b] -= w
		info[g.b][g.a] -= w
	}
	return grad, info
}

// maximize finds the maximum-likelihood theta by Newton's method with a
// backtracking line search, and returns it with the information there.
func maximize(n int, games []game) ([]float64, [][]float64) {
	theta := make([]float64, n)
	for range maxIterations {
		grad, info := gradientAndInformation(theta, games)
		step := solveSPD(info, grad)
		ll := logLikelihood(theta, games)
		next := make([]float64, n)
		for t := 1.0; t > 1e-12; t /= 2 {
			for i := range theta {
				next[i] = theta[i] + t*step[i]
			}
			if logLikelihood(next, games) >= ll {
				break
			}
		}
		moved := 0.0
		for i := range theta {
			moved = math.Max(moved, math.Abs(next[i]-theta[i]))
		}
		theta = next
		if moved < tolerance {
			break
		}
	}
	_, info := gradientAndInformation(theta, games)
	return theta, info
}
