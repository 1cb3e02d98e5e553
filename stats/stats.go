package stats

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"runtime"
	"slices"

	"golang.org/x/sync/errgroup"

	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/internal/bug"
	"github.com/ponte/ponte/replay"
	"github.com/ponte/ponte/store"
)

// Report is every statistic over the games a Filter selects.
type Report struct {
	Filter Filter `json:"filter"`
	// Population is the population the Boards cover: Filter.Population, or by default the
	// main population (MainPopulation): people's games when some board has FewGames of
	// them, else the bots' when there are any.
	Population string `json:"population"`
	// Populations counts the selection's legal games of every population (whatever
	// Population is) by format and site: what a population left out holds.
	Populations []PopulationCount `json:"populations"`
	// Cards give the verdict on the pie rule, one per board size of the population; by
	// default one per board size for each of people and bots, apart; for population all,
	// one per board size for each of people, bots and all: the answer first. Boards with few games (fewer than FewGames behind the estimate) come last,
	// then the most games first.
	Cards []Card `json:"cards"`
	// Verification covers the selection's games of every population: a game that cannot
	// be read cannot be told a bot's or a person's.
	Verification Verification `json:"verification"`
	Boards       []Board      `json:"boards"` // one per board size played in Population, smallest first
	// Accuracy is the players' accuracy by the engine's reading of their turns (ponte
	// annotate), absent when no game of the population is annotated.
	Accuracy []Accuracy `json:"accuracy,omitempty"`
	// SkippedReadings are the stored readings of the population's games left out of
	// Accuracy: values no reading has (NaN, a chance outside [0, 1], a word outside the
	// vocabulary), each named in a warning.
	SkippedReadings int `json:"skipped_readings,omitempty"`
}

// Verification summarises the verdicts of the selected games.
type Verification struct {
	Games      int         `json:"games"`      // distinct games stored
	Legal      int         `json:"legal"`      // every turn legal, every claim true
	Illegal    int         `json:"illegal"`    // read, but a rule broken (R1 … R9)
	Unreadable int         `json:"unreadable"` // not readable as a record
	Duplicates int         `json:"duplicates"` // further copies met of the stored games
	ByRule     []RuleCount `json:"by_rule"`    // the first broken rule of the games not legal
	// ByFormat splits the games by the format they were read from (ponte, jsonl,
	// boardspace, abstractplay): where an archive's games come from.
	ByFormat []FormatCount `json:"by_format"`
	// IllegalGames are the first games not legal, in the order stored (at most
	// Options.MaxIllegal of them).
	IllegalGames []IllegalGame `json:"illegal_games"`
}

// SourceCount is how many legal games were read from one format.
type SourceCount struct {
	Format string `json:"format"`
	Games  int    `json:"games"`
}

// RuleCount is how many games first broke one rule: the store's row, which carries its
// JSON names.
type RuleCount = store.RuleCount

// FormatCount is how many games were read from one format, and how many of them are legal.
type FormatCount = store.FormatCount

// IllegalGame is a game that is not legal, with where and why.
type IllegalGame = store.IllegalGame

// Board is every statistic of the legal games of one population on one board size.
type Board struct {
	Size       int    `json:"size"`
	Population string `json:"population"` // people, bots or all
	Games      int    `json:"games"`      // legal games
	// Sources splits the legal games by the format they were read from, most first.
	Sources  []SourceCount `json:"sources"`
	Decided  int           `json:"decided"`  // of which the result is known
	Finished int           `json:"finished"` // of which over by the rules (R5)
	Swap     Swap          `json:"swap"`
	Openings []Opening     `json:"openings"` // folded by symmetry, most played first
	// Priors are the beta priors the openings' rates are shrunk towards, fitted over the
	// openings of the board (Opening.SwappedShrunk and the others).
	Priors OpeningPriors `json:"priors"`
	// Secure estimates what the opener can secure: the opening whose worse branch (by
	// shrunk score) is best; nil when no opening was seen both swapped and not.
	Secure *Secure `json:"secure,omitempty"`
	// ByEdge and ByApart are the swap rate and the opener's score binned by the opening's
	// distance from the edge and by the distance between its two tiles (Opening.Edge,
	// Opening.Apart), over the decided games that reached turn 2.
	ByEdge  []DistanceBin `json:"by_edge"`
	ByApart []DistanceBin `json:"by_apart"`
	// OverTime is the swap rate and the opener's score by month or quarter; nil when no
	// game has a date with its month.
	OverTime *OverTime `json:"over_time,omitempty"`
	// Cells is the opening heat map, row by row from a1: every cell with the openings that
	// put one of their two tiles on it.
	Cells   []CellStat `json:"cells"`
	Scoring Scoring    `json:"scoring"`
	ByTurn  []TurnStat `json:"by_turn"`
}

// Swap is the balance of the pie rule: how often the second player swaps, and how the
// opener (the player of turn 1, whatever colour they end with) fares. A result counts 1
// for a win, ½ for a draw.
type Swap struct {
	Games         int  `json:"games"`          // decided games that reached turn 2
	Swapped       Rate `json:"swapped"`        // the second player swapped
	Opener        Rate `json:"opener"`         // the opener's score
	OpenerSwapped Rate `json:"opener_swapped"` // the opener's score when the second player swapped
	OpenerKept    Rate `json:"opener_kept"`    // … when they did not
	LightWins     Rate `json:"light_wins"`     // wins of the final Light player
	DarkWins      Rate `json:"dark_wins"`
	Draws         Rate `json:"draws"`
	// BestReply estimates the opener's expected result when the second player chooses
	// well: over the openings seen both swapped and not (each side at least MinBranch
	// games), the opener's score in the worse of the two, weighted by how often the opening
	// was played. The worse of two noisy rates leans low, the more so the fewer games each
	// has; its interval does not allow for that.
	BestReply Estimate `json:"best_reply"`
	// Strength is the first-move advantage with the players' strength taken out (a
	// Bradley–Terry fit); nil when it could not be fitted, and StrengthError says why.
	Strength      *Strength `json:"strength,omitempty"`
	StrengthError string    `json:"strength_error,omitempty"`
	// Verdict is the verdict of the board's Card: what the interval of the primary
	// estimate supports (Judge).
	Verdict string `json:"verdict"`
}

// MinBranch is the fewest games each of the swap and the no-swap branch of an opening
// needs to count in Swap.BestReply.
const MinBranch = 5

// Estimate is a value with a 95% interval (normal approximation) and what it rests on.
type Estimate struct {
	Value    float64 `json:"value"`
	Lo       float64 `json:"lo"`
	Hi       float64 `json:"hi"`
	Openings int     `json:"openings"` // opening classes used
	Games    int     `json:"games"`    // games of those openings
}

// Opening is one opening class: the first turn's two cells, folded by the board's
// symmetries (FoldPair).
type Opening struct {
	A             string `json:"a"` // the canonical pair's first cell
	B             string `json:"b"` // its second cell
	Games         int    `json:"games"`
	Share         Rate   `json:"share"`          // of all openings of the board
	Swapped       Rate   `json:"swapped"`        // the second player swapped
	Opener        Rate   `json:"opener"`         // the opener's score
	OpenerSwapped Rate   `json:"opener_swapped"` // the opener's score when swapped
	OpenerKept    Rate   `json:"opener_kept"`    // … when not
	// Edge is the opening's distance from the edge: the least, over its two tiles, of the
	// cells between the tile and the nearest edge (0 on the edge). Apart is the distance
	// between its two tiles, Chebyshev: the greater of the column and row differences.
	Edge  int `json:"edge"`
	Apart int `json:"apart"`
	// The rates shrunk towards the board's average (Board.Priors), with 95% intervals:
	// the swap rate, and the opener's score in each branch.
	SwappedShrunk       Shrunk `json:"swapped_shrunk"`
	OpenerKeptShrunk    Shrunk `json:"opener_kept_shrunk"`
	OpenerSwappedShrunk Shrunk `json:"opener_swapped_shrunk"`
}

// CellStat is one cell of the opening heat map, not folded.
type CellStat struct {
	Cell    string `json:"cell"`
	Col     int    `json:"col"`
	Row     int    `json:"row"`
	Games   int    `json:"games"`   // openings with a tile on the cell
	Swapped Rate   `json:"swapped"` // of those, swapped
	Opener  Rate   `json:"opener"`  // the opener's score in those games
}

// Scoring describes how the finished games were scored and how the legal ones ended.
type Scoring struct {
	Games      int        `json:"games"` // finished games
	ScoreLight []Bin      `json:"score_light"`
	ScoreDark  []Bin      `json:"score_dark"`
	Margin     []Bin      `json:"margin"`
	MeanScore  [2]float64 `json:"mean_score"` // [light, dark]
	MeanMargin float64    `json:"mean_margin"`
	Islands    []Bin      `json:"islands"` // islands per player at the end (both colours)
	Bridges    []Bin      `json:"bridges"` // bridges per player at the end
	// Components counts the components of the final positions by their islands (k ≥ 1):
	// how many islands bridges joined.
	Components []Bin   `json:"components"`
	TieBreaks  []Count `json:"tie_breaks"` // what decided (R7)
	Length     []Bin   `json:"length"`     // turns per finished game
	MeanLength float64 `json:"mean_length"`
	Endings    []Count `json:"endings"` // how the legal games ended: normal, resign, time, abandoned, agreement, unfinished
}

// Bin is one value of a distribution and how often it occurs.
type Bin struct {
	Value int `json:"value"`
	Count int `json:"count"`
}

// Count is how often one outcome occurs, as a rate of its population.
type Count struct {
	Name string `json:"name"`
	Rate Rate   `json:"rate"`
}

// TurnStat is the mean, over the legal games that reached a turn, of what that turn did
// and left.
type TurnStat struct {
	Turn          int        `json:"turn"`
	Games         int        `json:"games"`          // legal games with this turn
	IslandsFormed float64    `json:"islands_formed"` // islands the turn formed
	Bridges       float64    `json:"bridges"`        // share of the turns that built a bridge
	DeadCreated   float64    `json:"dead_created"`   // sandbanks the turn made dead (both colours)
	Mobility      [2]float64 `json:"mobility"`       // cells taking one tile, [light, dark], after the turn
}

// ErrEdited is wrapped by the errors of Compute that find in the database what no ingest
// writes: a board size the rules do not allow, ids out of order, a turn numbered 0, past
// 32,767 or past the game's turns. Such a database was edited by hand; ingesting the records again into a new file
// makes a good one.
var ErrEdited = errors.New("the database was edited: run ponte ingest into a new file")

// Options tune Compute.
type Options struct {
	MaxIllegal int // the most IllegalGames listed; 0 means 200
}

// Source is what the statistics read of a database: the methods of *store.Reader that
// Compute calls. The statistics are computation over its rows, which a test can give
// without a database.
type Source interface {
	Tally(ctx context.Context, f store.Filter) (store.Tally, error)
	ByRule(ctx context.Context, f store.Filter) ([]store.RuleCount, error)
	ByFormat(ctx context.Context, f store.Filter) ([]store.FormatCount, error)
	IllegalGames(ctx context.Context, f store.Filter, limit int) ([]store.IllegalGame, error)
	SiteCounts(ctx context.Context, f store.Filter) ([]store.SiteCount, error)
	MostOnABoard(ctx context.Context, f store.Filter) (int, error)
	IDs(ctx context.Context) (lo, hi int64, ok bool, err error)
	LegalGames(ctx context.Context, f store.Filter, from, to int64, fn func(*store.LegalGame) error) error
	TurnSummaries(ctx context.Context, from, to int64, fn func(*store.TurnSummary) error) error
}

var _ Source = (*store.Reader)(nil)

// Compute computes the report of the games f selects in the database src (a
// *store.Reader).
func Compute(ctx context.Context, src Source, f Filter, opts Options) (*Report, error) {
	if err := f.Validate(); err != nil {
		return nil, err
	}
	if opts.MaxIllegal == 0 {
		opts.MaxIllegal = 200
	}
	r := &Report{Filter: f}
	// The verification's summary reads the games apart from the rest: on its own
	// connection, while the rest goes on.
	verified := make(chan error, 1)
	v := &r.Verification
	go func() {
		defer bug.Recover()
		verified <- verification(ctx, src, whole(f), opts, v)
	}()
	err := computeBoards(ctx, src, f, r)
	if verr := <-verified; verr != nil {
		return nil, verr
	}
	if err != nil {
		return nil, err
	}
	return r, nil
}

// whole is f without its population: the selection whose every population is counted.
func whole(f Filter) Filter {
	f.Population = ""
	return f
}

// computeBoards computes the populations, boards and cards of the report r.
func computeBoards(ctx context.Context, src Source, f Filter, r *Report) error {
	var err error
	if r.Populations, err = populations(ctx, src, f); err != nil {
		return err
	}
	// The populations tallied into cards, and the one whose boards the report details.
	// The default tallies people and bots apart, never mixed, and details the main one:
	// people's games when some board has FewGames of them, else the bots' when there are
	// any (an archive of self-play with a handful of people's games is studied through its
	// bots, and says so).
	tallied := []string{f.Population}
	r.Population = f.Population
	switch f.Population {
	case PopulationAll:
		tallied = []string{PopulationPeople, PopulationBots, PopulationAll}
	case "":
		tallied = []string{PopulationPeople, PopulationBots}
		if r.Population, err = mainPopulation(ctx, src, f, r.Populations); err != nil {
			return err
		}
	}
	boards := map[string]map[int]*boardTally{}
	for _, pop := range tallied {
		boards[pop] = map[int]*boardTally{}
	}
	sel, err := games(ctx, src, f, r.Population, boards)
	if err != nil {
		return err
	}
	// The turns are summed while the cards are made.
	var turns map[int][]TurnStat
	summed := make(chan error, 1)
	go func() {
		defer bug.Recover()
		var err error
		turns, err = byTurn(ctx, src, sel)
		summed <- err
	}()
	for _, pop := range tallied {
		for _, size := range slices.Sorted(maps.Keys(boards[pop])) {
			b := boards[pop][size].board(size, pop)
			c := newCard(&b)
			b.Swap.Verdict = c.Verdict
			r.Cards = append(r.Cards, c)
			if pop == r.Population {
				r.Boards = append(r.Boards, b)
			}
		}
	}
	if err := <-summed; err != nil {
		return err
	}
	for i := range r.Boards {
		r.Boards[i].ByTurn = turns[r.Boards[i].Size]
	}
	SortCards(r.Cards)
	return nil
}

func verification(ctx context.Context, src Source, f Filter, opts Options, v *Verification) error {
	t, err := src.Tally(ctx, f)
	if err != nil {
		return err
	}
	v.Games, v.Legal, v.Illegal, v.Unreadable, v.Duplicates = t.Games, t.Legal, t.Illegal, t.Unreadable, t.Duplicates
	rules, err := src.ByRule(ctx, f)
	if err != nil {
		return err
	}
	v.ByRule = rules
	formats, err := src.ByFormat(ctx, f)
	if err != nil {
		return err
	}
	v.ByFormat = formats
	illegal, err := src.IllegalGames(ctx, f, opts.MaxIllegal)
	v.IllegalGames = illegal
	return err
}

// boardTally accumulates the per-game statistics of one board size and population.
type boardTally struct {
	games, decided, finished        int
	swapped, opener, openerSwapped  tally
	openerKept, light, dark, draws  tally
	openings                        map[[2]game.Cell]*openingTally
	cells                           map[game.Cell]*cellTally
	scoreLight, scoreDark, margin   map[int]int
	islands, bridges, comps, length map[int]int
	sumScore                        [2]int
	sumMargin, sumLength            int
	tieBreaks, endings              map[string]int
	formats                         map[string]int // legal games by format
	edge, apart                     map[int]*cellTally
	months                          map[int]*cellTally // by year·12 + month − 1
	undated                         int                // decided games past turn 2 without a month
	rating                          ratingTally
}

type openingTally struct {
	swapped, opener, openerSwapped, openerKept tally
}

// cellTally is a swap rate and an opener's score over some games.
type cellTally struct {
	swapped, opener tally
}

func (c *cellTally) add(sw, score float64) {
	c.swapped.add(sw)
	c.opener.add(score)
}

// addTo adds a game to the tally of key in m, made when missing.
func addTo[K comparable](m map[K]*cellTally, key K, sw, score float64) {
	c := m[key]
	if c == nil {
		c = &cellTally{}
		m[key] = c
	}
	c.add(sw, score)
}

func newBoardTally() *boardTally {
	return &boardTally{
		openings: map[[2]game.Cell]*openingTally{}, cells: map[game.Cell]*cellTally{},
		scoreLight: map[int]int{}, scoreDark: map[int]int{}, margin: map[int]int{},
		islands: map[int]int{}, bridges: map[int]int{}, comps: map[int]int{}, length: map[int]int{},
		tieBreaks: map[string]int{}, endings: map[string]int{}, formats: map[string]int{},
		edge: map[int]*cellTally{}, apart: map[int]*cellTally{}, months: map[int]*cellTally{},
		rating: ratingTally{players: map[string]int{}},
	}
}

// gameRow is what the statistics read of one legal game.
type gameRow = store.LegalGame

// selected is the legal games of the population the report covers, as games() read them:
// their ids in ascending order and the board size of each. It is sized by the games read,
// never by the values of their ids: an edited database's ids (negative, or near 2^63) cost
// nothing more.
type selected struct {
	ids   []int64
	sizes []uint8
	turns []int32 // games.turns: the turns of the game's summary (game_turns.turns)
}

// games reads the legal games the filter selects into the tallies of their population and
// board size, boards[population][size], and returns those of the population pop (all:
// every game). boards holds a map for each population tallied: pop alone (then only its
// games are read), or people and bots (the default), or people, bots and all. The final
// components of pop's finished games are counted from what the ingest stored of them
// (games.components_light and _dark). A game whose board size is not one the rules allow is refused: only
// an edited database holds one, and its size would size the heat map.
func games(ctx context.Context, src Source, f Filter, pop string, boards map[string]map[int]*boardTally) (*selected, error) {
	// The games are read in ranges of their ids, each on a goroutine of its own with
	// tallies of its own, which are then added up in the order of the ranges: reading the
	// games table is most of the statistics' time, and the tallies come out as one pass in
	// id order makes them (counts, sums of halves and the rated games in order).
	lo, hi, ok, err := src.IDs(ctx)
	if err != nil {
		return nil, err
	}
	parts := min(max(2, runtime.NumCPU()), 8)
	if gameParts > 0 {
		parts = gameParts
	}
	if parts == 1 || !ok || uint64(hi-lo) < uint64(parts) { // one pass: no game, or too few to split
		return gamesIn(ctx, src, f, pop, boards, math.MinInt64, math.MaxInt64)
	}
	// The ranges start step apart; the last one ends at hi. Unsigned, as an edited
	// database's ids may be as far apart as int64 allows.
	step := uint64(hi-lo) / uint64(parts)
	start := func(p int) int64 { return lo + int64(uint64(p)*step) }
	sels := make([]*selected, parts)
	tallies := make([]map[string]map[int]*boardTally, parts)
	errs := make([]error, parts)
	// A range that fails stops the others: its error is the one a single pass would meet
	// first, not one copy of "context canceled" per range.
	eg, ectx := errgroup.WithContext(ctx)
	eg.SetLimit(parts)
	for p := range parts {
		from, to := start(p), hi
		if p < parts-1 {
			to = start(p+1) - 1
		}
		tallies[p] = map[string]map[int]*boardTally{}
		for tallied := range boards {
			tallies[p][tallied] = map[int]*boardTally{}
		}
		eg.Go(func() error {
			defer bug.Recover()
			sels[p], errs[p] = gamesIn(ectx, src, f, pop, tallies[p], from, to)
			return errs[p]
		})
	}
	eg.Wait()
	for _, err := range errs { // in the order of the ranges: the first a single pass meets
		if err != nil && !errors.Is(err, context.Canceled) {
			return nil, err
		}
	}
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	// The first range's tallies and selection take the others' in: nothing is copied twice.
	n := 0
	for _, s := range sels {
		n += len(s.ids)
	}
	sel := sels[0]
	sel.ids = slices.Grow(sel.ids, n-len(sel.ids))
	sel.sizes = slices.Grow(sel.sizes, n-len(sel.sizes))
	sel.turns = slices.Grow(sel.turns, n-len(sel.turns))
	for p := range parts {
		if p > 0 {
			sel.ids = append(sel.ids, sels[p].ids...)
			sel.sizes = append(sel.sizes, sels[p].sizes...)
			sel.turns = append(sel.turns, sels[p].turns...)
			sels[p] = nil
		}
		for pop, bySize := range tallies[p] {
			for _, size := range slices.Sorted(maps.Keys(bySize)) {
				if boards[pop][size] == nil {
					boards[pop][size] = bySize[size] // the first range with this board
					continue
				}
				boards[pop][size].merge(bySize[size])
			}
		}
		tallies[p] = nil
	}
	return sel, nil
}

// gameParts, when not 0, is the number of ranges games reads (tests).
var gameParts = 0

// gamesIn is games for the games whose ids are from … to.
func gamesIn(ctx context.Context, src Source, f Filter, pop string, boards map[string]map[int]*boardTally, from, to int64) (*selected, error) {
	// One population alone is read alone; else every game, each told its population.
	read := whole(f)
	if len(boards) == 1 && (pop == PopulationPeople || pop == PopulationBots) {
		read.Population = pop
	}
	sel := &selected{}
	var read_, prev int64
	err := src.LegalGames(ctx, read, from, to, func(g *gameRow) error {
		id := g.ID
		if g.Size < game.MinSize || g.Size > game.MaxSize {
			return fmt.Errorf("games.id %d has size %d, not %d to %d: %w", id, g.Size, game.MinSize, game.MaxSize, ErrEdited)
		}
		if read_ > 0 && id <= prev {
			return fmt.Errorf("games.id %d comes after games.id %d: the ids are not unique and ascending: %w", id, prev, ErrEdited)
		}
		read_, prev = read_+1, id
		own := PopulationPeople
		if g.Bot {
			own = PopulationBots
		}
		if own == pop || pop == PopulationAll {
			sel.ids = append(sel.ids, id)
			sel.sizes = append(sel.sizes, uint8(g.Size))
			sel.turns = append(sel.turns, int32(min(max(g.Turns, 0), math.MaxInt32)))
		}
		for p, bySize := range boards {
			if p != own && p != PopulationAll {
				continue
			}
			b := bySize[g.Size]
			if b == nil {
				b = newBoardTally()
				bySize[g.Size] = b
			}
			b.add(g)
		}
		if g.Over && (own == pop || pop == PopulationAll) {
			for c, text := range g.Components {
				if !g.HasComponents[c] {
					return fmt.Errorf("games.id %d is finished but has no %s: %w", id, [2]string{"components_light", "components_dark"}[c], ErrEdited)
				}
				if err := addComponents(text, boards[pop][g.Size].comps); err != nil {
					return fmt.Errorf("games.id %d: %w", id, err)
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return sel, nil
}

// merge adds the tallies of o, of games that come after b's, to b.
func (b *boardTally) merge(o *boardTally) {
	b.games += o.games
	b.decided += o.decided
	b.finished += o.finished
	for _, t := range [][2]*tally{{&b.swapped, &o.swapped}, {&b.opener, &o.opener}, {&b.openerSwapped, &o.openerSwapped},
		{&b.openerKept, &o.openerKept}, {&b.light, &o.light}, {&b.dark, &o.dark}, {&b.draws, &o.draws}} {
		t[0].merge(*t[1])
	}
	for k, v := range o.openings {
		if w := b.openings[k]; w != nil {
			w.merge(v)
		} else {
			b.openings[k] = v
		}
	}
	mergeCells(b.cells, o.cells)
	mergeCells(b.edge, o.edge)
	mergeCells(b.apart, o.apart)
	mergeCells(b.months, o.months)
	for _, m := range [][2]map[int]int{{b.scoreLight, o.scoreLight}, {b.scoreDark, o.scoreDark}, {b.margin, o.margin},
		{b.islands, o.islands}, {b.bridges, o.bridges}, {b.comps, o.comps}, {b.length, o.length}} {
		for k, v := range m[1] {
			m[0][k] += v
		}
	}
	for _, m := range [][2]map[string]int{{b.tieBreaks, o.tieBreaks}, {b.endings, o.endings}, {b.formats, o.formats}} {
		for k, v := range m[1] {
			m[0][k] += v
		}
	}
	b.sumScore[0] += o.sumScore[0]
	b.sumScore[1] += o.sumScore[1]
	b.sumMargin += o.sumMargin
	b.sumLength += o.sumLength
	b.undated += o.undated
	b.rating.merge(&o.rating)
}

// mergeCells adds the tallies of o to those of m, key by key.
func mergeCells[K comparable](m, o map[K]*cellTally) {
	for k, v := range o {
		if w := m[k]; w != nil {
			w.swapped.merge(v.swapped)
			w.opener.merge(v.opener)
		} else {
			m[k] = v
		}
	}
}

// merge adds the tallies of o.
func (t *openingTally) merge(o *openingTally) {
	t.swapped.merge(o.swapped)
	t.opener.merge(o.opener)
	t.openerSwapped.merge(o.openerSwapped)
	t.openerKept.merge(o.openerKept)
}

func (b *boardTally) add(g *gameRow) {
	b.games++
	b.formats[g.Format]++
	b.endings[g.Ending()]++
	if res := g.Final(); res != game.NoResult {
		b.decided++
		if g.Turns >= 2 && g.OpeningA != "" && g.OpeningB != "" {
			b.addOpening(g, res)
		}
	}
	if !g.Over {
		return
	}
	b.finished++
	b.scoreLight[g.Score[0]]++
	b.scoreDark[g.Score[1]]++
	b.margin[g.Margin]++
	b.sumScore[0] += g.Score[0]
	b.sumScore[1] += g.Score[1]
	b.sumMargin += g.Margin
	b.islands[g.Islands[0]]++
	b.islands[g.Islands[1]]++
	b.bridges[g.Bridge[0]]++
	b.bridges[g.Bridge[1]]++
	b.length[g.Turns]++
	b.sumLength += g.Turns
	b.tieBreaks[g.TieBreak]++
}

// addOpening counts a decided game that reached turn 2 in the swap and opening tallies.
func (b *boardTally) addOpening(g *gameRow, res game.Result) {
	m, err := replay.ParseMove(g.OpeningA+","+g.OpeningB, g.Size)
	if err != nil {
		return // a legal game's opening always parses; nothing to count otherwise
	}
	var openerScore float64
	switch res {
	case game.Draw:
		openerScore = 0.5
		b.draws.add(1)
		b.light.add(0)
		b.dark.add(0)
	case game.LightWins:
		b.draws.add(0)
		b.light.add(1)
		b.dark.add(0)
		if !g.Swapped { // the opener ends as Light unless the second player swapped
			openerScore = 1
		}
	case game.DarkWins:
		b.draws.add(0)
		b.light.add(0)
		b.dark.add(1)
		if g.Swapped {
			openerScore = 1
		}
	}
	sw := 0.0
	if g.Swapped {
		sw = 1
	}
	b.swapped.add(sw)
	b.opener.add(openerScore)
	if g.Swapped {
		b.openerSwapped.add(openerScore)
	} else {
		b.openerKept.add(openerScore)
	}
	fa, fb := game.FoldPair(m.A, m.B, g.Size)
	o := b.openings[[2]game.Cell{fa, fb}]
	if o == nil {
		o = &openingTally{}
		b.openings[[2]game.Cell{fa, fb}] = o
	}
	o.swapped.add(sw)
	o.opener.add(openerScore)
	if g.Swapped {
		o.openerSwapped.add(openerScore)
	} else {
		o.openerKept.add(openerScore)
	}
	for _, c := range [2]game.Cell{m.A, m.B} {
		addTo(b.cells, c, sw, openerScore)
	}
	edge, apart := distances(m.A, m.B, g.Size)
	addTo(b.edge, edge, sw, openerScore)
	addTo(b.apart, apart, sw, openerScore)
	if month, ok := monthOf(g.Date); ok {
		addTo(b.months, month, sw, openerScore)
	} else {
		b.undated++
	}
	b.rating.add(g, openerScore)
}

func (b *boardTally) board(size int, pop string) Board {
	out := Board{Size: size, Population: pop, Games: b.games, Decided: b.decided, Finished: b.finished}
	s := &out.Swap
	s.Games = b.swapped.n
	s.Swapped, s.Opener = b.swapped.rate(), b.opener.rate()
	s.OpenerSwapped, s.OpenerKept = b.openerSwapped.rate(), b.openerKept.rate()
	s.LightWins, s.DarkWins, s.Draws = b.light.rate(), b.dark.rate(), b.draws.rate()
	s.Strength, s.StrengthError = b.rating.fit()

	var value, variance float64
	// In the order of the openings, not of the map: the sums below are of floats, whose
	// last digits depend on the order they are added in.
	pairs := slices.SortedFunc(maps.Keys(b.openings), func(x, y [2]game.Cell) int {
		if c := cmp.Compare(x[0], y[0]); c != 0 {
			return c
		}
		return cmp.Compare(x[1], y[1])
	})
	for _, pair := range pairs {
		o := b.openings[pair]
		op := Opening{
			A: pair[0].String(), B: pair[1].String(), Games: o.opener.n,
			Share:   NewRate(float64(o.opener.n), b.swapped.n),
			Swapped: o.swapped.rate(), Opener: o.opener.rate(),
			OpenerSwapped: o.openerSwapped.rate(), OpenerKept: o.openerKept.rate(),
		}
		op.Edge, op.Apart = distances(pair[0], pair[1], size)
		out.Openings = append(out.Openings, op)
		if o.openerSwapped.n >= MinBranch && o.openerKept.n >= MinBranch {
			best := op.OpenerSwapped
			if op.OpenerKept.P < best.P {
				best = op.OpenerKept
			}
			s.BestReply.Openings++
			s.BestReply.Games += o.opener.n
			value += float64(o.opener.n) * best.P
			variance += float64(o.opener.n*o.opener.n) * best.P * (1 - best.P) / float64(best.N)
		}
	}
	if n := float64(s.BestReply.Games); n > 0 {
		e := &s.BestReply
		e.Value = value / n
		half := z * math.Sqrt(variance) / n
		e.Lo, e.Hi = max(0, e.Value-half), min(1, e.Value+half)
	}
	slices.SortFunc(out.Openings, func(x, y Opening) int {
		if c := cmp.Compare(y.Games, x.Games); c != 0 {
			return c
		}
		return cmp.Compare(x.A+" "+x.B, y.A+" "+y.B)
	})
	out.Priors, out.Secure = shrinkOpenings(out.Openings)
	out.ByEdge, out.ByApart = distanceBins(b.edge), distanceBins(b.apart)
	out.OverTime = overTime(b.months, b.undated)

	for row := 0; row < size; row++ {
		for col := 0; col < size; col++ {
			c := game.CellAt(col, row)
			cs := CellStat{Cell: c.String(), Col: col, Row: row, Swapped: NewRate(0, 0), Opener: NewRate(0, 0)}
			if ct := b.cells[c]; ct != nil {
				cs.Games, cs.Swapped, cs.Opener = ct.opener.n, ct.swapped.rate(), ct.opener.rate()
			}
			out.Cells = append(out.Cells, cs)
		}
	}

	sc := &out.Scoring
	sc.Games = b.finished
	sc.ScoreLight, sc.ScoreDark, sc.Margin = bins(b.scoreLight), bins(b.scoreDark), bins(b.margin)
	sc.Islands, sc.Bridges, sc.Components, sc.Length = bins(b.islands), bins(b.bridges), bins(b.comps), bins(b.length)
	if b.finished > 0 {
		n := float64(b.finished)
		sc.MeanScore = [2]float64{float64(b.sumScore[0]) / n, float64(b.sumScore[1]) / n}
		sc.MeanMargin = float64(b.sumMargin) / n
		sc.MeanLength = float64(b.sumLength) / n
	}
	for _, name := range []string{"score", "islands", "bridges", "draw"} {
		sc.TieBreaks = append(sc.TieBreaks, Count{Name: name, Rate: NewRate(float64(b.tieBreaks[name]), b.finished)})
	}
	for _, name := range game.Endings {
		sc.Endings = append(sc.Endings, Count{Name: name, Rate: NewRate(float64(b.endings[name]), b.games)})
	}
	for format, n := range b.formats {
		out.Sources = append(out.Sources, SourceCount{Format: format, Games: n})
	}
	slices.SortFunc(out.Sources, func(x, y SourceCount) int {
		if c := cmp.Compare(y.Games, x.Games); c != 0 {
			return c
		}
		return cmp.Compare(x.Format, y.Format)
	})
	return out
}

func bins(m map[int]int) []Bin {
	out := make([]Bin, 0, len(m))
	for v, n := range m {
		out = append(out, Bin{Value: v, Count: n})
	}
	slices.SortFunc(out, func(x, y Bin) int { return cmp.Compare(x.Value, y.Value) })
	return out
}

// byTurn sums the features of the selected games' turns by board size and turn number, in
// one pass over the store's turn summaries in the order of the games (Reader.TurnSummaries,
// which decodes them), split into ranges of the selected games read in parallel.
func byTurn(ctx context.Context, src Source, sel *selected) (map[int][]TurnStat, error) {
	parts := runtime.NumCPU()
	n := len(sel.ids)
	sums := make([]map[int][]turnSum, parts)
	errs := make([]error, parts) // every range's, joined: one range's error stops no other
	var eg errgroup.Group
	eg.SetLimit(parts)
	for p := range parts {
		lo, hi := n*p/parts, n*(p+1)/parts
		if lo == hi {
			continue
		}
		eg.Go(func() error {
			defer bug.Recover()
			sums[p], errs[p] = turnSums(ctx, src, sel.ids[lo:hi], sel.sizes[lo:hi], sel.turns[lo:hi])
			return nil
		})
	}
	eg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("by turn: %w", err)
	}
	total := map[int][]turnSum{}
	for _, part := range sums {
		for size, a := range part {
			t := total[size]
			for len(t) < len(a) {
				t = append(t, turnSum{})
			}
			for i := range a {
				t[i].add(&a[i])
			}
			total[size] = t
		}
	}
	out := map[int][]TurnStat{}
	for size, a := range total {
		for i, t := range a {
			if t.n == 0 {
				continue
			}
			f := float64(t.n)
			out[size] = append(out[size], TurnStat{Turn: i + 1, Games: t.n, IslandsFormed: float64(t.islands) / f,
				Bridges: float64(t.bridges) / f, DeadCreated: float64(t.dead) / f,
				Mobility: [2]float64{float64(t.mobLight) / f, float64(t.mobDark) / f}})
		}
	}
	return out, nil
}

// turnSum adds up the turns of one turn number.
type turnSum struct {
	n, islands, bridges, dead, mobLight, mobDark int
}

func (t *turnSum) add(u *turnSum) {
	t.n += u.n
	t.islands += u.islands
	t.bridges += u.bridges
	t.dead += u.dead
	t.mobLight += u.mobLight
	t.mobDark += u.mobDark
}

// b2i is 1 for true, 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// maxTurn bounds the turn numbers summed: a stored game has at most the readers' turn
// limit (10,000 by default); a game said to have more is only in an edited database, and
// is refused rather than summed into arrays that size.
const maxTurn = 1<<15 - 1

// turnSums sums the turns of the selected games ids (ascending), whose board sizes are
// sizes and numbers of turns played legally turns (games.turns). The games come in the
// order of game_turns' key and are matched to the selected ones by walking both in step. A
// selected game with turns but no row, or whose summary does not hold as many turns as
// games.turns, is refused: only an edit makes one.
func turnSums(ctx context.Context, src Source, ids []int64, sizes []uint8, turns []int32) (map[int][]turnSum, error) {
	bySize := map[int][]turnSum{}
	next := 0 // ids[next] is the first selected game not behind the current row's
	// skip passes the selected games before game (all of them if last), which have no
	// row: they must have no turns.
	skip := func(game int64, last bool) error {
		for ; next < len(ids) && (last || ids[next] < game); next++ {
			if turns[next] > 0 {
				return fmt.Errorf("game %d has %d turns played legally (games.turns) but no row in game_turns: %w", ids[next], turns[next], ErrEdited)
			}
		}
		return nil
	}
	err := src.TurnSummaries(ctx, ids[0], ids[len(ids)-1], func(ts *store.TurnSummary) error {
		game, n := ts.Game, len(ts.Turns)
		if err := skip(game, false); err != nil {
			return err
		}
		if next == len(ids) || ids[next] != game {
			return nil // a game the filter leaves out, or one not legal
		}
		switch {
		case n != int(turns[next]):
			return fmt.Errorf("game %d has %d turns in game_turns.turns, but %d played legally (games.turns): %w", game, n, turns[next], ErrEdited)
		case n > maxTurn:
			return fmt.Errorf("game %d has %d turns, more than the %d summed: %w", game, n, maxTurn, ErrEdited)
		}
		size := int(sizes[next])
		a := bySize[size]
		if len(a) < n {
			a = append(a, make([]turnSum, n-len(a))...)
			bySize[size] = a
		}
		turns := ts.Turns // a local slice, and sums of its length: no bounds to check
		sums := a[:len(turns)]
		for i := range turns {
			t, p := &sums[i], &turns[i]
			t.n++
			t.islands += p.IslandsFormed
			t.bridges += b2i(p.Bridge) // without a branch: half the turns are bridges
			t.dead += p.DeadCreated[0] + p.DeadCreated[1]
			t.mobLight += p.Mobility[0]
			t.mobDark += p.Mobility[1]
		}
		next++
		return nil
	})
	if bad := (*store.TurnsError)(nil); errors.As(err, &bad) {
		return nil, fmt.Errorf("%v: %w", bad, ErrEdited)
	}
	if err != nil {
		return nil, err
	}
	return bySize, skip(0, true)
}
