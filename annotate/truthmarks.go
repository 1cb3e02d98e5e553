package annotate

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/ponte/ponte/bot"
	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/internal/score"
	"github.com/ponte/ponte/internal/termtext"
	"github.com/ponte/ponte/replay"
)

// ReadCandidate reads the turn token as if it were played after the turns moves of a game
// of side size, as Analyse reads a turn of a game of stable id gameID (the same searches
// with the same random numbers), and the turn gets its loss and mark. RawAfter is the
// value of the position after it for an engine that searches it (arch, lore), else 0.
func (e *Engine) ReadCandidate(gameID string, size int, moves []string, token string) (Turn, error) {
	pos, err := positionAfter(size, moves)
	if err != nil {
		return Turn{}, err
	}
	k := len(moves)
	m, err := pos.ReadTurn(k+1, token)
	if err != nil {
		return Turn{}, fmt.Errorf("turn %d %q: %w", k+1, token, err)
	}
	seed := seedOf(gameID)
	played := &m
	if e.after {
		played = nil
	}
	a := e.an.Analyse(pos, played, rand.New(rand.NewPCG(seed, uint64(k))))
	t := Turn{Turn: k + 1, Colour: pos.ToMove(), Played: token, RawBefore: a.Light,
		BestQ: a.BestQ, PlayedQ: a.PlayedQ, BestN: a.BestN, PlayedN: a.PlayedN}
	if e.after {
		b, over, err := e.searchAfter(pos, m, seed)
		if err != nil {
			return Turn{}, fmt.Errorf("turn %d %q: %w", k+1, token, err)
		}
		t.RawAfter, t.OverAfter = b.Light, over
		if !a.Best.Same(m) {
			t.PlayedQ, t.PlayedN = valueAfter(t.Colour, b.Light, over, b.Playouts)
		} else {
			t.PlayedQ, t.PlayedN = t.BestQ, t.BestN // the engine's own best loses nothing
		}
	}
	if a.Best != (replay.Move{}) {
		t.Best = a.Best.String()
	}
	e.cal.Apply(&t, size)
	return t, nil
}

// searchAfter is the search Analyse makes of the position after the turn m of pos, from a
// game whose searches are seeded with seed, and whether that position is over.
func (e *Engine) searchAfter(pos *replay.Game, m replay.Move, seed uint64) (bot.Analysis, bool, error) {
	after := pos.Clone()
	if err := after.Play(m); err != nil {
		return bot.Analysis{}, false, err
	}
	return e.an.Analyse(after, nil, rand.New(rand.NewPCG(seed, uint64(after.Turn())))), after.Over(), nil
}

// positionAfter is the position after the turns moves on a board of side size.
func positionAfter(size int, moves []string) (*replay.Game, error) {
	pos, err := replay.NewGame(size, game.Unlimited)
	if err != nil {
		return nil, err
	}
	for k, m := range moves {
		if _, err := pos.PlayTurn(k+1, m); err != nil {
			return nil, fmt.Errorf("turn %d %q: %w", k+1, m, err)
		}
	}
	return pos, nil
}

// Turns is the turns before the candidate, as movetext tokens.
func (r TruthRow) Turns() []string { return strings.Fields(r.Moves) }

// Replay is the position the candidate is played in.
func (r TruthRow) Replay() (*replay.Game, error) { return positionAfter(int(r.Size), r.Turns()) }

// position is the position the candidate is played in, and the candidate.
func (r TruthRow) position() (*replay.Game, replay.Move, error) {
	pos, err := r.Replay()
	if err != nil {
		return nil, replay.Move{}, err
	}
	m, err := pos.ReadTurn(pos.Turn()+1, r.Candidate)
	if err != nil {
		return nil, replay.Move{}, fmt.Errorf("turn %d %q: %w", pos.Turn()+1, r.Candidate, err)
	}
	return pos, m, nil
}

// BestTurn is the engine's best turn in the position after the turns moves, found by the
// search ReadCandidate makes of it for arch and lore ("" when the search had no choice).
func (e *Engine) BestTurn(gameID string, size int, moves []string) (string, error) {
	pos, err := positionAfter(size, moves)
	if err != nil {
		return "", err
	}
	a := e.an.Analyse(pos, nil, rand.New(rand.NewPCG(seedOf(gameID), uint64(len(moves)))))
	if a.Best == (replay.Move{}) {
		return "", nil
	}
	return a.Best.String(), nil
}

// TruthGameID is the stable id a truth set's position is read under, so that the reading
// of its candidates shares the search's random numbers: "truth-8x8-17".
func TruthGameID(size, position int32) string {
	return "truth-" + strconv.Itoa(int(size)) + "x" + strconv.Itoa(int(size)) + "-" + strconv.Itoa(int(position))
}

// TruthReading is a candidate of the truth set with the engine's reading of it.
type TruthReading struct {
	TruthRow
	Predicted float64 // the reading's loss
	Mark      Mark
}

// ReadTruthSet reads every candidate of rows but the best of each position (whose measured
// loss is 0 by construction) with e.
func (e *Engine) ReadTruthSet(rows []TruthRow) ([]TruthReading, error) {
	var out []TruthReading
	for _, r := range rows {
		if r.Kind == KindBest.String() {
			continue
		}
		t, err := e.ReadCandidate(TruthGameID(r.Size, r.Position), int(r.Size), r.Turns(), r.Candidate)
		if err != nil {
			return nil, fmt.Errorf("%d×%d position %d, candidate %s: %w", r.Size, r.Size, r.Position, r.Candidate, err)
		}
		out = append(out, TruthReading{TruthRow: r, Predicted: t.Loss, Mark: t.Mark})
	}
	return out, nil
}

// ReadTruthSetValues reads every candidate of rows but the best against its position's best
// candidate, the searcher's: the loss is the engine's value for the mover after the best less
// its value after the candidate, each from the search of that position (ReadCandidate's
// RawAfter), never clamped, marked by MarkOf. It measures the engine's values alone, given the
// best turn, where ReadTruthSet measures them with the engine's own best; arch and lore only.
func (e *Engine) ReadTruthSetValues(rows []TruthRow) ([]TruthReading, error) {
	if !e.after {
		return nil, fmt.Errorf("%s values a turn played together with its own best (inside its search, or by the same games), not by the position after it: its values cannot be read against another best", e.name)
	}
	// after is the engine's value for the mover after r's candidate: the search of that
	// position alone, as ReadCandidate makes it.
	after := func(r TruthRow) (float64, error) {
		pos, m, err := r.position()
		if err == nil {
			var b bot.Analysis
			var over bool
			if b, over, err = e.searchAfter(pos, m, seedOf(TruthGameID(r.Size, r.Position))); err == nil {
				v, _ := valueAfter(pos.ToMove(), b.Light, over, 0)
				return v, nil
			}
		}
		return 0, fmt.Errorf("%d×%d position %d, candidate %s: %w", r.Size, r.Size, r.Position, r.Candidate, err)
	}
	best := map[[2]int32]float64{}
	for _, r := range rows {
		if r.Kind != KindBest.String() {
			continue
		}
		v, err := after(r)
		if err != nil {
			return nil, err
		}
		best[[2]int32{r.Size, r.Position}] = v
	}
	var out []TruthReading
	for _, r := range rows {
		if r.Kind == KindBest.String() {
			continue
		}
		b, ok := best[[2]int32{r.Size, r.Position}]
		if !ok {
			return nil, fmt.Errorf("%d×%d position %d: no best candidate", r.Size, r.Size, r.Position)
		}
		v, err := after(r)
		if err != nil {
			return nil, err
		}
		out = append(out, TruthReading{TruthRow: r, Predicted: b - v, Mark: MarkOf(b - v)})
	}
	return out, nil
}

// The losses the marks are judged by, from the issue: a turn marked mistake or blunder is
// right when it measured to lose at least PrecisionLoss; a turn that measured to lose at
// least RecallLoss should be marked mistake or blunder; a turn that lost at most
// FalseAlarmLoss should get no mark.
const (
	PrecisionLoss  = 0.10
	RecallLoss     = 0.25
	FalseAlarmLoss = 0.03
)

// Share is k of n, with its 95 % Wilson interval.
type Share struct {
	K, N   int
	Lo, Hi float64
}

// Rate is k/n, NaN when n is 0.
func (s Share) Rate() float64 { return float64(s.K) / float64(s.N) }

// Percent is the share as docs/annotate.md's tables write it: "71.4 % (60.9–80.0)".
func (s Share) Percent() string {
	if s.N == 0 {
		return "none of 0"
	}
	return fmt.Sprintf("%.1f %% (%.1f–%.1f)", 100*s.Rate(), 100*s.Lo, 100*s.Hi)
}

// MarksFrom are the figures of rs marked mistake from a predicted loss t upwards (and
// unmarked below it), and how many turns that marks.
func MarksFrom(rs []TruthReading, t float64) (MarksFigures, int) {
	marked := make([]TruthReading, len(rs))
	n := 0
	for i, r := range rs {
		marked[i], marked[i].Mark = r, Good
		if r.Predicted >= t {
			marked[i].Mark = Mistake
			n++
		}
	}
	return Marks(marked), n
}

func (s Share) String() string {
	if s.N == 0 {
		return "none of 0"
	}
	return fmt.Sprintf("%d of %d, %.1f%% (95%% interval %.1f–%.1f%%)", s.K, s.N, 100*s.Rate(), 100*s.Lo, 100*s.Hi)
}

func shareOf(k, n int) Share {
	lo, hi := wilson(float64(k), float64(n))
	return Share{K: k, N: n, Lo: lo, Hi: hi}
}

// Estimate is a figure from n turns with its 95 % interval.
type Estimate struct {
	N             int
	Value, Lo, Hi float64
}

// MarksFigures is how a reading's losses and marks agree with the measured ones.
type MarksFigures struct {
	// MAE is the mean absolute difference of the predicted and measured losses (its
	// interval the normal one of a mean); Spearman the rank correlation of the two (its
	// interval by Fisher's z, with Bonett and Wright's variance).
	MAE, Spearman Estimate
	// Precision is the share of the turns marked mistake or blunder that measured a loss
	// of at least PrecisionLoss; Recall the share of those that measured at least
	// RecallLoss that are marked mistake or blunder; FalseAlarms the share of those that
	// measured at most FalseAlarmLoss that have any mark.
	Precision, Recall, FalseAlarms Share
	// ByMark is, for each mark (Good first), how many turns got it and the mean of their
	// measured losses with its 95 % interval.
	ByMark [4]MarkMeasured
}

// Marks measures the readings against their measured losses.
func Marks(rs []TruthReading) MarksFigures {
	var f MarksFigures
	pred, meas, absErr := make([]float64, len(rs)), make([]float64, len(rs)), make([]float64, len(rs))
	var pk, pn, rk, rn, fk, fn int
	for i, r := range rs {
		pred[i], meas[i] = r.Predicted, r.Loss
		absErr[i] = math.Abs(r.Predicted - r.Loss)
		bad := r.Mark >= Mistake
		if bad {
			pn++
			if r.Loss >= PrecisionLoss {
				pk++
			}
		}
		if r.Loss >= RecallLoss {
			rn++
			if bad {
				rk++
			}
		}
		if r.Loss <= FalseAlarmLoss {
			fn++
			if r.Mark != Good {
				fk++
			}
		}
	}
	f.ByMark = measureMarks(rs)
	f.Precision, f.Recall, f.FalseAlarms = shareOf(pk, pn), shareOf(rk, rn), shareOf(fk, fn)
	n := len(rs)
	f.MAE.N, f.Spearman.N = n, n
	if n >= 2 {
		m, lo, hi := meanInterval(absErr)
		f.MAE.Value, f.MAE.Lo, f.MAE.Hi = m, max(0, lo), hi
	}
	f.Spearman.Value, f.Spearman.Lo, f.Spearman.Hi = math.NaN(), math.NaN(), math.NaN()
	if n >= 4 {
		r := score.Spearman(pred, meas)
		se := math.Sqrt((1 + r*r/2) / float64(n-3))
		f.Spearman.Value, f.Spearman.Lo, f.Spearman.Hi = r, math.Tanh(math.Atanh(r)-1.96*se), math.Tanh(math.Atanh(r)+1.96*se)
	}
	return f
}

// Lines are the figures as the truthset command and docs/annotate.md write them.
func (f MarksFigures) Lines() []string {
	lines := []string{
		fmt.Sprintf("mean absolute error of the predicted loss: %.3f (95%% interval %.3f–%.3f), %d turns", f.MAE.Value, f.MAE.Lo, f.MAE.Hi, f.MAE.N),
		fmt.Sprintf("rank correlation (Spearman) of predicted and measured loss: %.2f (95%% interval %.2f–%.2f), %d turns", f.Spearman.Value, f.Spearman.Lo, f.Spearman.Hi, f.Spearman.N),
		fmt.Sprintf("precision: marked mistake or blunder and measured to lose ≥ %.0f points: %s", 100*PrecisionLoss, f.Precision),
		fmt.Sprintf("recall: measured to lose ≥ %.0f points and marked mistake or blunder: %s", 100*RecallLoss, f.Recall),
		fmt.Sprintf("false alarms: measured to lose ≤ %.0f points and marked: %s", 100*FalseAlarmLoss, f.FalseAlarms),
	}
	var by []string
	for m := Good; m <= Blunder; m++ {
		name := m.String()
		if name == "" {
			name = "no mark"
		}
		b := f.ByMark[m]
		if b.N == 0 {
			by = append(by, name+" 0 turns")
			continue
		}
		by = append(by, fmt.Sprintf("%s %d %s, %.1f points", name, b.N, termtext.Plural(b.N, "turn", "turns"), 100*b.Mean))
	}
	lines = append(lines, "measured loss on average by mark: "+strings.Join(by, "; "))
	return lines
}
