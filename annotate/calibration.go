package annotate

import "math"

// Calibration maps the search's value v of a position (the mean result of its playouts
// for Light) to the chance that Light wins: σ(A + B·logit(v)), fitted by logistic
// regression on self-play positions (docs/annotate.md, reproduced by
// `go run ./annotate/fitcal`).
type Calibration struct {
	A, B float64
}

// Chance returns the calibrated chance that Light wins for a search value v of a position
// not over (the value of a finished game is its result, and needs no calibration).
func (c Calibration) Chance(v float64) float64 {
	return sigmoid(c.A + c.B*logit(v))
}

func logit(v float64) float64 {
	v = math.Max(1e-4, math.Min(1-1e-4, v))
	return math.Log(v / (1 - v))
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }
