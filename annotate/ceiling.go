package annotate

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat"
)

// ReadingError is how far a reading's losses lie from the measured ones once the truth
// set's own noise is taken out: Bias is the mean of predicted less measured, SD the spread
// of that difference less the measurement's (√(var − mean of LossSE²), 0 when the
// measurement's noise explains it all), Pearson the linear correlation of the two.
// Equivalent is the sd of the unbiased normal error that gives a reading of Ceiling's model
// the same correlation with the measured losses: the error of the reading rescaled at its
// best, comparable with Ceiling's σ.
type ReadingError struct {
	N                             int
	Bias, SD, Pearson, Equivalent float64
}

// ErrorOf measures rs' error against the truth set (docs/annotate.md, "The marks' ceiling").
func ErrorOf(rs []TruthReading) ReadingError {
	e := ReadingError{N: len(rs), Bias: math.NaN(), SD: math.NaN(), Pearson: math.NaN(), Equivalent: math.NaN()}
	if len(rs) < 2 {
		return e
	}
	d, pred, meas := make([]float64, len(rs)), make([]float64, len(rs)), make([]float64, len(rs))
	var noise float64
	for i, r := range rs {
		d[i], pred[i], meas[i] = r.Predicted-r.Loss, r.Predicted, r.Loss
		noise += r.LossSE * r.LossSE
	}
	m, v := stat.MeanVariance(d, nil)
	e.Bias, e.SD = m, math.Sqrt(max(0, v-noise/float64(len(rs))))
	e.Pearson = stat.Correlation(pred, meas, nil)
	// In Ceiling's model the measured losses are the true ones, L (variance v), and a
	// reading L + N(0, σ²) correlates with them at √(v / (v+σ²)): Equivalent solves it for
	// σ at the reading's own correlation.
	if v := stat.Variance(meas, nil); e.Pearson > 0 {
		e.Equivalent = math.Sqrt(v * (1/(e.Pearson*e.Pearson) - 1))
	}
	return e
}

// Ceiling is what marks from a predicted loss of t upwards would reach against the truth set
// if the reading erred only by an unbiased normal error of sd sigma: each of sims draws takes
// a candidate's measured loss as its true loss, measures it again with its own standard
// error (LossSE), predicts it with the error, and counts precision, recall and false alarms
// as Marks does. It returns their means over the draws. rows are the candidates that are not
// their position's best.
func Ceiling(rows []TruthRow, sigma, t float64, sims int, seed uint64) (precision, recall, falseAlarms float64) {
	rng := rand.New(rand.NewPCG(seed, math.Float64bits(sigma)^math.Float64bits(t)))
	var np, nr, nf int
	for range sims {
		var pk, pn, rk, rn, fk, fn int
		for _, r := range rows {
			meas := r.Loss + r.LossSE*rng.NormFloat64()
			bad := r.Loss+sigma*rng.NormFloat64() >= t
			if bad {
				pn++
				if meas >= PrecisionLoss {
					pk++
				}
			}
			if meas >= RecallLoss {
				rn++
				if bad {
					rk++
				}
			}
			if meas <= FalseAlarmLoss {
				fn++
				if bad {
					fk++
				}
			}
		}
		if pn > 0 {
			precision += float64(pk) / float64(pn)
			np++
		}
		if rn > 0 {
			recall += float64(rk) / float64(rn)
			nr++
		}
		if fn > 0 {
			falseAlarms += float64(fk) / float64(fn)
			nf++
		}
	}
	return precision / float64(max(np, 1)), recall / float64(max(nr, 1)), falseAlarms / float64(max(nf, 1))
}
