package annotate

import (
	"math"
	"strings"
)

// Calibration maps the search's value v of a position (the mean result of its playouts
// for Light) to the chance that Light wins: a logistic regression on the value's logit z
// and the game's phase p (Phase), σ(W0 + W1·z + W2·p + W3·z·p), fitted on self-play
// positions (docs/annotate.md, reproduced by `go run ./annotate/fitcal`). The phase term
// lets a value mean more late in a game than early, when the playouts that make it are
// short and nearly forced.
type Calibration struct {
	W [4]float64
	// Thresholds are the marks' thresholds of the engine's losses (DefaultThresholds when
	// zero).
	Thresholds Thresholds
	// Paired: the values of the best turn and of the turn played are means over the same
	// games (a reading by play), and their difference counts whole, without the discount of
	// the standard error of two searches' playouts.
	Paired bool
}

// ByPlay is the calibration of a reading by play: its values are already the chances of
// the truth set's player, and its thresholds are its own (PlayThresholds).
var ByPlay = Calibration{W: Identity.W, Thresholds: PlayThresholds, Paired: true}

// Identity is the calibration that takes the search's value as it is.
var Identity = Calibration{W: [4]float64{0, 1, 0, 0}}

// Phase is how far a game on a board of side size is after turns turns: the tiles two a
// turn would fill the board at 1.
func Phase(turns, size int) float64 {
	return math.Min(1.5, 2*float64(turns)/float64(size*size))
}

// features are the regression's inputs for a value v at phase p.
func features(v, p float64) [4]float64 {
	z := logit(v)
	return [4]float64{1, z, p, z * p}
}

// Chance returns the calibrated chance that Light wins for a search value v of a position
// not over at phase p (the value of a finished game is its result, and needs no
// calibration).
func (c Calibration) Chance(v, p float64) float64 {
	x := features(v, p)
	s := 0.0
	for i := range x {
		s += c.W[i] * x[i]
	}
	return sigmoid(s)
}

func logit(v float64) float64 {
	v = math.Max(1e-4, math.Min(1-1e-4, v))
	return math.Log(v / (1 - v))
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// CalibrationOf is the calibration made for the engine called engine: FittedLore for arch
// and lore, whose values the search of the position after a turn makes, Fitted for sage,
// ByPlay for a reading by play.
func CalibrationOf(engine string) Calibration {
	c, _ := fittedOf(engine)
	return c
}

// CheckOf is the reliability on held-out self-play games of CalibrationOf(engine); the zero
// Check for a reading by play, which is not fitted.
func CheckOf(engine string) Check {
	_, c := fittedOf(engine)
	return c
}

func fittedOf(engine string) (Calibration, Check) {
	if ReadsByPlay(engine) {
		return ByPlay, Check{} // measured, not fitted: nothing to check it with
	}
	if strings.HasPrefix(engine, "sage") {
		return Fitted, FittedCheck
	}
	return FittedLore, FittedLoreCheck
}
