package annotate

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/ponte/ponte/bot"
	"github.com/ponte/ponte/replay"
)

// ByPlayConfig is a reading of a truth set by play: a candidate's loss is the mover's mean
// score over Games games played out after the best turn less that after the candidate, by
// the truth set's player on both sides, game k of both with the same random source.
type ByPlayConfig struct {
	Player string // the bots of the games: the truth set's, "lore-100"
	Games  int    // games after each turn
	// Bests are where a position's best turn comes from: an engine's search of it
	// (Engine.BestTurn, "lore-1000") or TruthBest, the truth set's best candidate.
	Bests []string
	// Salt makes game k of a position PCG(the truth set's seed of the position ^ Salt, k);
	// 0 plays the truth set's own games, DefaultByPlaySalt others.
	Salt    uint64
	Workers int // positions read at once
}

// TruthBest names the truth set's best candidate as the best turn of a reading by play.
const TruthBest = "truth"

// DefaultByPlaySalt keeps a reading by play's games apart from the truth set's.
const DefaultByPlaySalt = 0x9e3779b97f4a7c15

// ByPlayReading is one candidate read by play against one best turn.
type ByPlayReading struct {
	TruthRow
	Source string // where the best turn came from: TruthBest or an engine
	Best   string // that turn; "" when the engine had no choice
	// Diffs are, game by game, the mover's score after Best less after the candidate:
	// all 0 when the candidate is Best.
	Diffs []float64
}

// Loss is the reading's loss over its first n games: the mean of Diffs[:n], never below 0
// for an engine's best turn (as a reading clamps it), as it is against the truth set's.
func (r ByPlayReading) Loss(n int) float64 {
	var s float64
	for _, d := range r.Diffs[:n] {
		s += d
	}
	l := s / float64(n)
	if r.Source != TruthBest {
		l = max(0, l)
	}
	return l
}

// ReadByPlay reads every candidate of rows but the best with c, against each of c.Bests,
// position by position on c.Workers goroutines; games, when not nil, is told of each game
// played, one call at a time. The readings come position by position (in the order of
// their first rows), each position's candidates in the order of rows, then of c.Bests,
// whatever the workers.
func ReadByPlay(ctx context.Context, rows []TruthRow, c ByPlayConfig, games func(n int)) ([]ByPlayReading, error) {
	if c.Games < 1 {
		return nil, fmt.Errorf("games %d: must be 1 or more", c.Games)
	}
	if err := bot.ParseName(c.Player); err != nil {
		return nil, err
	}
	for _, b := range c.Bests {
		if b == TruthBest {
			continue
		}
		if err := CheckEngine(b); err != nil {
			return nil, fmt.Errorf("best turn of %w", err)
		}
	}
	type group struct {
		key  [2]int32
		rows []int // indexes into rows
	}
	var groups []group
	at := map[[2]int32]int{}
	for i, r := range rows {
		k := [2]int32{r.Size, r.Position}
		g, ok := at[k]
		if !ok {
			g = len(groups)
			at[k] = g
			groups = append(groups, group{key: k})
		}
		groups[g].rows = append(groups[g].rows, i)
	}
	if games != nil {
		var mu sync.Mutex
		told := games
		games = func(n int) {
			mu.Lock()
			defer mu.Unlock()
			told(n)
		}
	}
	out := make([][]ByPlayReading, len(groups))
	cfg := TruthConfig{Workers: c.Workers}
	engines := make(chan map[string]*Engine, max(c.Workers, 1)) // one set a worker
	for range max(c.Workers, 1) {
		es := map[string]*Engine{}
		for _, b := range c.Bests {
			if b == TruthBest {
				continue
			}
			e, err := NewEngine(b, CalibrationOf(b))
			if err != nil {
				return nil, err
			}
			es[b] = e
		}
		engines <- es
	}
	err := cfg.playJobs(ctx, len(groups), func(j int) error {
		es := <-engines
		defer func() { engines <- es }()
		rs, err := c.readPosition(ctx, rows, groups[j].rows, es, games)
		if err != nil {
			return fmt.Errorf("%d×%d position %d: %w", groups[j].key[0], groups[j].key[0], groups[j].key[1], err)
		}
		out[j] = rs
		return nil
	})
	if err != nil {
		return nil, err
	}
	return slices.Concat(out...), nil
}

// readPosition reads the candidates rows[idx] of one position.
func (c ByPlayConfig) readPosition(ctx context.Context, rows []TruthRow, idx []int, es map[string]*Engine, games func(n int)) ([]ByPlayReading, error) {
	first := rows[idx[0]]
	pos, err := first.Replay()
	if err != nil {
		return nil, err
	}
	mover := pos.ToMove()
	seed := first.Seed ^ c.Salt
	turn := func(token string) (replay.Move, error) { return pos.ReadTurn(pos.Turn()+1, token) }
	type played struct {
		m      replay.Move
		scores []float64
	}
	var done []played
	// scores plays Games games after token (once a turn), game k from PCG(seed, k).
	scores := func(token string) ([]float64, error) {
		m, err := turn(token)
		if err != nil {
			return nil, err
		}
		for _, p := range done {
			if p.m.Same(m) {
				return p.scores, nil
			}
		}
		s, err := playOuts(ctx, pos, token, mover, c.Player, seed, c.Games, games)
		if err != nil {
			return nil, err
		}
		done = append(done, played{m, s})
		return s, nil
	}
	bests := make([]string, len(c.Bests))
	for i, b := range c.Bests {
		if b != TruthBest {
			if bests[i], err = es[b].BestTurn(TruthGameID(first.Size, first.Position), int(first.Size), first.Turns()); err != nil {
				return nil, err
			}
			continue
		}
		for _, j := range idx {
			if rows[j].Kind == KindBest.String() {
				bests[i] = rows[j].Candidate
			}
		}
		if bests[i] == "" {
			return nil, fmt.Errorf("no best candidate")
		}
	}
	var out []ByPlayReading
	for _, j := range idx {
		r := rows[j]
		if r.Kind == KindBest.String() {
			continue
		}
		cand, err := scores(r.Candidate)
		if err != nil {
			return nil, err
		}
		cm, _ := turn(r.Candidate)
		for i, b := range bests {
			rd := ByPlayReading{TruthRow: r, Source: c.Bests[i], Best: b, Diffs: make([]float64, c.Games)}
			if b != "" {
				bm, err := turn(b)
				if err != nil {
					return nil, err
				}
				if !bm.Same(cm) {
					bs, err := scores(b)
					if err != nil {
						return nil, err
					}
					for k := range rd.Diffs {
						rd.Diffs[k] = bs[k] - cand[k]
					}
				}
			}
			out = append(out, rd)
		}
	}
	return out, nil
}
