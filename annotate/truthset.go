package annotate

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/parquet-go/parquet-go"
	"gonum.org/v1/gonum/stat"

	"github.com/ponte/ponte/bot"
	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/internal/outfile"
	"github.com/ponte/ponte/replay"
)

// PlayOut plays the turn token in pos (which it does not change) and the rest of the game
// between the bots of sides (by the colour to move, Light first), all randomness from rng,
// and returns the score of mover: 1 a win, ½ a draw, 0 a loss.
func PlayOut(pos *replay.Game, token string, mover replay.Colour, sides [2]bot.Bot, rng *rand.Rand) (float64, error) {
	g := pos.Clone()
	if err := g.PlayText(token); err != nil {
		return 0, fmt.Errorf("turn %d %s: %w", g.Turn()+1, token, err)
	}
	limit := bot.MaxTurns(g.Size())
	for !g.Over() {
		if g.Turn() >= limit {
			return 0, fmt.Errorf("game did not end after %d turns", limit)
		}
		m := sides[g.ToMove()].Turn(g, rng)
		if err := g.Play(m); err != nil {
			return 0, fmt.Errorf("turn %d %s: %w", g.Turn()+1, m, err)
		}
	}
	return g.ResultFor(mover), nil
}

// Kind is how a candidate turn of the truth set was chosen.
type Kind int8

const (
	// KindBest is the engine's best turn: the most visited at the root of its search.
	KindBest Kind = iota
	// KindTop is another of the engine's ten most visited turns, drawn uniformly.
	KindTop
	// KindRandom is a uniformly random legal turn.
	KindRandom
)

// String returns the kind as the truth set writes it: "best", "top" or "random".
func (k Kind) String() string {
	switch k {
	case KindBest:
		return "best"
	case KindTop:
		return "top"
	case KindRandom:
		return "random"
	}
	return fmt.Sprintf("Kind(%d)", int8(k))
}

// parseKind reads a kind written by String.
func parseKind(s string) (Kind, bool) {
	for _, k := range []Kind{KindBest, KindTop, KindRandom} {
		if k.String() == s {
			return k, true
		}
	}
	return 0, false
}

// TruthRow is one candidate turn of the truth set: a position drawn from strong self-play,
// a turn there, and the turn's value measured by games played out after it
// (docs/annotate.md, "Truth set").
type TruthRow struct {
	Position int32  `parquet:"position"` // the position's number among those of its size and seed
	Size     int32  `parquet:"size"`
	Turn     int32  `parquet:"turn"`  // the candidate's turn number, from 1
	Moves    string `parquet:"moves"` // the turns before it, movetext tokens separated by spaces
	// Candidate is the turn's token; Kind ("best", "top", "random") how it was chosen and
	// Rank its place among the searcher's root turns by visits (1 the best; 0 for a random
	// turn the search did not visit).
	Candidate string `parquet:"candidate"`
	Kind      string `parquet:"kind,dict"`
	Rank      int32  `parquet:"rank"`
	// Games is how many games were played out after the turn: game k (from 0) of every
	// candidate of a position is played with the random source PCG(Seed, k).
	Games int32   `parquet:"games"`
	Mean  float64 `parquet:"mean"` // the mover's mean score over them
	// Loss is the best candidate's mean less this one's over the same games (k < Games),
	// and LossSE its standard error (the paired differences'); 0 and 0 for the best.
	Loss   float64 `parquet:"loss"`
	LossSE float64 `parquet:"loss_se"`
	Seed   uint64  `parquet:"seed"`
	// BaseSeed is the seed of the run the position is drawn from; Player the bot that plays
	// the self-play and the games out on both sides, Searcher the one whose search ranks the
	// candidates.
	BaseSeed uint64 `parquet:"base_seed"`
	Player   string `parquet:"player,dict"`
	Searcher string `parquet:"searcher,dict"`
}

// TruthConfig is how a truth set is made: which positions, by which bots, to what
// precision.
type TruthConfig struct {
	Size     int
	Seed     uint64
	Player   string  // plays the self-play games and the games out: "lore-100"
	Searcher string  // ranks the candidates: "lore-1000"
	SE       float64 // the standard error each loss is measured to: 0.05
	Batch    int     // games added to a candidate at a time (and the fewest it gets)
	MaxGames int     // the cap on a candidate's games
	Workers  int     // goroutines playing games out
	// FromTurn and ToTurn bound the candidates' turn numbers.
	FromTurn, ToTurn int
}

// DefaultTruthConfig is the truth set's default making on a board of side size.
func DefaultTruthConfig(size int) TruthConfig {
	return TruthConfig{Size: size, Seed: 1, Player: "lore-100", Searcher: "lore-1000", SE: 0.05,
		Batch: 32, MaxGames: 480, Workers: 2, FromTurn: 3, ToTurn: 40}
}

// Check reports a setting the truth set cannot be made with.
func (c TruthConfig) Check() error {
	switch {
	case c.Size < game.MinSize || c.Size > game.MaxSize:
		return fmt.Errorf("size %d: must be from %d to %d", c.Size, game.MinSize, game.MaxSize)
	case c.SE <= 0:
		return fmt.Errorf("standard error %g: must be above 0", c.SE)
	case c.Batch < 2 || c.MaxGames < c.Batch:
		return fmt.Errorf("batch %d, cap %d: the batch must be 2 or more and the cap at least the batch", c.Batch, c.MaxGames)
	case c.FromTurn < 3 || c.ToTurn < c.FromTurn:
		return fmt.Errorf("turns %d to %d: from 3 (after the swap) and not backwards", c.FromTurn, c.ToTurn)
	}
	for _, name := range []string{c.Player, c.Searcher} {
		if err := bot.ParseName(name); err != nil {
			return err
		}
	}
	if b, err := bot.New(c.Searcher, bot.Options{}); err != nil {
		return err
	} else if a, ok := b.(*bot.Arch); !ok || a.Shared {
		return fmt.Errorf("searcher %q: must be an arch or lore bot with a tree per thread (its root's turns are read)", c.Searcher)
	}
	return nil
}

// truthPosition is a position of the truth set and its candidates.
type truthPosition struct {
	id    int
	seed  uint64
	turn  int // the candidates' turn number
	moves []string
	pos   *replay.Game
	cands []truthCand
}

type truthCand struct {
	token string
	kind  Kind
	rank  int
}

// drawPosition plays the self-play game of position id to just before a turn drawn
// uniformly among FromTurn to ToTurn (drawn again while the game ends before it), and
// chooses its candidates: the searcher's most visited turn, two more drawn among its ten
// most visited, and a uniformly random legal turn unlike them.
func (c TruthConfig) drawPosition(id int) (*truthPosition, error) {
	rng := rand.New(rand.NewPCG(c.Seed, uint64(c.Size)<<32|uint64(id)))
	tp := &truthPosition{id: id, seed: rng.Uint64()}
	for try := 0; ; try++ {
		if try == 100 {
			return nil, fmt.Errorf("position %d: no self-play game reached turn %d", id, c.FromTurn)
		}
		tp.turn = c.FromTurn + rng.IntN(c.ToTurn-c.FromTurn+1)
		g, err := replay.NewGame(c.Size, game.Unlimited)
		if err != nil {
			return nil, err
		}
		sides, err := c.bots(c.Player)
		if err != nil {
			return nil, err
		}
		tp.moves = tp.moves[:0]
		for g.Turn() < tp.turn-1 && !g.Over() {
			m := sides[g.ToMove()].Turn(g, rng)
			if err := g.Play(m); err != nil {
				return nil, fmt.Errorf("position %d: self-play turn %d %s: %w", id, g.Turn()+1, m, err)
			}
			tp.moves = append(tp.moves, m.String())
		}
		if !g.Over() {
			tp.pos = g
			break
		}
	}
	b, err := bot.New(c.Searcher, bot.Options{})
	if err != nil {
		return nil, err
	}
	searcher := b.(*bot.Arch)
	searcher.Analyse(tp.pos, nil, rng)
	roots := searcher.RootTurns()
	if len(roots) == 0 {
		return nil, fmt.Errorf("position %d: the search of %s visited no turn", id, c.Searcher)
	}
	tp.cands = append(tp.cands, truthCand{roots[0].Move.String(), KindBest, 1})
	top := min(len(roots), 10) - 1 // ranks 2 to 10
	for _, j := range rng.Perm(top)[:min(2, top)] {
		tp.cands = append(tp.cands, truthCand{roots[j+1].Move.String(), KindTop, j + 2})
	}
	slices.SortFunc(tp.cands[1:], func(a, b truthCand) int { return cmp.Compare(a.rank, b.rank) })
	for try := 0; try < 50; try++ {
		m := bot.Random{}.Turn(tp.pos, rng).String()
		if slices.ContainsFunc(tp.cands, func(c truthCand) bool { return c.token == m }) {
			continue
		}
		rank := 0
		for j, r := range roots {
			if r.Move.String() == m {
				rank = j + 1
			}
		}
		tp.cands = append(tp.cands, truthCand{m, KindRandom, rank})
		break
	}
	return tp, nil
}

// bots makes the two sides of a game, fresh, so that a game depends on its seed alone.
func (c TruthConfig) bots(name string) ([2]bot.Bot, error) { return freshSides(name) }

// freshSides are two new bots called name, one a side.
func freshSides(name string) ([2]bot.Bot, error) {
	var sides [2]bot.Bot
	for i := range sides {
		b, err := bot.New(name, bot.Options{})
		if err != nil {
			return sides, err
		}
		sides[i] = b
	}
	return sides, nil
}

// MeasurePosition draws position id and measures its candidates: games are played out
// after each, Batch at a time, game k of every candidate with the random source
// PCG(seed, k), until the loss of each (the best candidate's mean less its own, over the
// same games) has a standard error of at most SE or MaxGames games. games, when not nil,
// is called with the games played as they are played. It returns the position's rows,
// the best candidate first.
func (c TruthConfig) MeasurePosition(ctx context.Context, id int, games func(n int)) ([]TruthRow, error) {
	tp, err := c.drawPosition(id)
	if err != nil {
		return nil, err
	}
	mover := tp.pos.ToMove()
	scores := make([][]float64, len(tp.cands))
	open := make([]bool, len(tp.cands)) // a candidate still to measure further
	for i := range open {
		open[i] = true
	}
	for {
		type job struct{ cand, k int }
		var jobs []job
		need := 0 // games the best candidate must reach
		for i := 1; i < len(tp.cands); i++ {
			if open[i] {
				need = max(need, len(scores[i])+c.Batch)
			}
		}
		if len(scores[0]) == 0 {
			need = max(need, c.Batch)
		}
		if need == 0 {
			break
		}
		for i := range tp.cands {
			to := len(scores[i]) + c.Batch
			if i == 0 {
				to = need
			} else if !open[i] {
				continue
			}
			for k := len(scores[i]); k < to; k++ {
				jobs = append(jobs, job{i, k})
			}
			scores[i] = append(scores[i], make([]float64, to-len(scores[i]))...)
		}
		if err := c.playJobs(ctx, len(jobs), func(j int) error {
			jb := jobs[j]
			sides, err := c.bots(c.Player)
			if err != nil {
				return err
			}
			s, err := PlayOut(tp.pos, tp.cands[jb.cand].token, mover, sides, rand.New(rand.NewPCG(tp.seed, uint64(jb.k))))
			if err != nil {
				return fmt.Errorf("position %d, candidate %s, game %d: %w", id, tp.cands[jb.cand].token, jb.k, err)
			}
			scores[jb.cand][jb.k] = s
			if games != nil {
				games(1)
			}
			return nil
		}); err != nil {
			return nil, err
		}
		for i := 1; i < len(tp.cands); i++ {
			if !open[i] {
				continue
			}
			_, se := pairedLoss(scores[0], scores[i])
			open[i] = se > c.SE && len(scores[i]) < c.MaxGames
		}
	}
	rows := make([]TruthRow, len(tp.cands))
	for i, cd := range tp.cands {
		loss, se := pairedLoss(scores[0], scores[i])
		rows[i] = TruthRow{Position: int32(id), Size: int32(c.Size), Turn: int32(tp.turn), Moves: strings.Join(tp.moves, " "),
			Candidate: cd.token, Kind: cd.kind.String(), Rank: int32(cd.rank), Games: int32(len(scores[i])),
			Mean: stat.Mean(scores[i], nil), Loss: loss, LossSE: se, Seed: tp.seed, BaseSeed: c.Seed,
			Player: c.Player, Searcher: c.Searcher}
		if i == 0 {
			rows[i].Loss, rows[i].LossSE = 0, 0
		}
	}
	return rows, nil
}

// pairedLoss is the mean of best[k] − s[k] over the games of s, and its standard error:
// that of the paired differences, their variance counted with one more game of variance
// ¼, so that games that all agree (a decided position) do not make it 0.
func pairedLoss(best, s []float64) (loss, se float64) {
	n := len(s)
	d := make([]float64, n)
	for k := range n {
		d[k] = best[k] - s[k]
	}
	if n < 2 {
		return stat.Mean(d, nil), math.Inf(1)
	}
	loss, v := stat.MeanVariance(d, nil)
	v = (v*float64(n-1) + 0.25) / float64(n)
	return loss, math.Sqrt(v / float64(n))
}

// playJobs runs job(0) to job(n−1) on c.Workers goroutines and returns the first error.
func (c TruthConfig) playJobs(ctx context.Context, n int, job func(j int) error) error {
	next := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var first error
	for range max(c.Workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range next {
				if err := job(j); err != nil {
					mu.Lock()
					if first == nil {
						first = err
					}
					mu.Unlock()
				}
			}
		}()
	}
	var err error
	for j := range n {
		if err = ctx.Err(); err != nil {
			break
		}
		mu.Lock()
		failed := first != nil
		mu.Unlock()
		if failed {
			break
		}
		next <- j
	}
	close(next)
	wg.Wait()
	if first != nil {
		return first
	}
	return err
}

// ErrTruthSet is wrapped by the errors of a truth set file that cannot be used.
var ErrTruthSet = errors.New("not a usable truth set")

// TruthSetError names the file and row of a truth set that cannot be used.
type TruthSetError struct {
	Path string
	Row  int // from 1; 0 for the file as a whole
	Err  error
}

func (e *TruthSetError) Error() string {
	if e.Row == 0 {
		return fmt.Sprintf("%s: %v", e.Path, e.Err)
	}
	return fmt.Sprintf("%s: row %d: %v", e.Path, e.Row, e.Err)
}

func (e *TruthSetError) Unwrap() []error { return []error{ErrTruthSet, e.Err} }

// ReadTruthSet reads a truth set file whole and checks its rows.
func ReadTruthSet(path string) ([]TruthRow, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	pf, err := parquet.OpenFile(f, info.Size())
	if err != nil {
		return nil, &TruthSetError{Path: path, Err: err}
	}
	if want := parquet.SchemaOf(TruthRow{}); !parquet.SameNodes(pf.Schema(), want) {
		return nil, &TruthSetError{Path: path, Err: fmt.Errorf("its columns are not a truth set's (%s)", strings.Join(columnNames(want), ", "))}
	}
	rd := parquet.NewGenericReader[TruthRow](pf)
	defer rd.Close()
	rows := make([]TruthRow, pf.NumRows())
	n, err := rd.Read(rows)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, &TruthSetError{Path: path, Err: err}
	}
	rows = rows[:n]
	for i, r := range rows {
		if err := r.check(); err != nil {
			return nil, &TruthSetError{Path: path, Row: i + 1, Err: err}
		}
	}
	return rows, nil
}

func columnNames(s *parquet.Schema) []string {
	var out []string
	for _, f := range s.Fields() {
		out = append(out, f.Name())
	}
	return out
}

// check reports a row whose values cannot be a measured candidate.
func (r TruthRow) check() error {
	_, ok := parseKind(r.Kind)
	switch {
	case !ok:
		return fmt.Errorf("position %d, candidate %q: kind %q: must be best, top or random", r.Position, r.Candidate, r.Kind)
	case r.Size < game.MinSize || r.Size > game.MaxSize:
		return fmt.Errorf("position %d: size %d", r.Position, r.Size)
	case r.Games < 1 || r.Mean < 0 || r.Mean > 1 || math.IsNaN(r.Loss) || r.Loss < -1 || r.Loss > 1 || !(r.LossSE >= 0):
		return fmt.Errorf("position %d, candidate %q: games %d, mean %g, loss %g ± %g: not a measurement", r.Position, r.Candidate, r.Games, r.Mean, r.Loss, r.LossSE)
	}
	return nil
}

// truthKey is a row's place in a truth set: a candidate of a position.
type truthKey struct {
	size, position int32
	candidate      string
}

// MergeTruthSets returns the rows of sets as one truth set, each candidate once, in the
// order of size, position and then as measured (the best first): merging a set with itself
// or with its parts adds nothing. A candidate measured differently in two sets, or a
// position with other candidates, is an error naming them.
func MergeTruthSets(sets ...[]TruthRow) ([]TruthRow, error) {
	seen := map[truthKey]TruthRow{}
	var out []TruthRow
	for _, set := range sets {
		for _, r := range set {
			k := truthKey{r.Size, r.Position, r.Candidate}
			if old, ok := seen[k]; ok {
				if old != r {
					return nil, fmt.Errorf("%d×%d position %d, candidate %s: measured twice differently (%d games, mean %.4f; %d games, mean %.4f): made with other settings?", r.Size, r.Size, r.Position, r.Candidate, old.Games, old.Mean, r.Games, r.Mean)
				}
				continue
			}
			seen[k] = r
			out = append(out, r)
		}
	}
	order := func(r TruthRow) int {
		k, _ := parseKind(r.Kind)
		return int(k)*1000 + int(r.Rank)
	}
	slices.SortStableFunc(out, func(a, b TruthRow) int {
		return cmp.Or(cmp.Compare(a.Size, b.Size), cmp.Compare(a.Position, b.Position), cmp.Compare(order(a), order(b)))
	})
	for i := 0; i < len(out); {
		j := i
		for j < len(out) && out[j].Size == out[i].Size && out[j].Position == out[i].Position {
			j++
		}
		if err := checkPosition(out[i:j]); err != nil {
			return nil, err
		}
		i = j
	}
	return out, nil
}

// checkPosition checks that the rows of one position agree: one best candidate, one
// position, one seed.
func checkPosition(rows []TruthRow) error {
	r0 := rows[0]
	if r0.Kind != KindBest.String() {
		return fmt.Errorf("%d×%d position %d: no best candidate", r0.Size, r0.Size, r0.Position)
	}
	for _, r := range rows[1:] {
		if r.Kind == KindBest.String() || r.Moves != r0.Moves || r.Seed != r0.Seed || r.Turn != r0.Turn {
			return fmt.Errorf("%d×%d position %d: candidates %s and %s disagree on the position (made with other settings?)", r0.Size, r0.Size, r0.Position, r0.Candidate, r.Candidate)
		}
	}
	return nil
}

// WriteTruthSet writes rows to path whole (replacing it only once the file is complete).
func WriteTruthSet(ctx context.Context, path string, rows []TruthRow) error {
	return outfile.WriteFile(ctx, path, func(w io.Writer) error {
		pw := parquet.NewGenericWriter[TruthRow](w, parquet.Compression(&parquet.Zstd), parquet.CreatedBy("ponte", "", ""))
		if _, err := pw.Write(rows); err != nil {
			return err
		}
		return pw.Close()
	})
}
