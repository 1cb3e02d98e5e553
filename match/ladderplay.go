package match

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/ponte/ponte/bot"
	"github.com/ponte/ponte/game"
)

// LadderPlay plays the ladder's missing games (ponte bots --play): each bot of Bots
// against the next Reach of them, in blocks of Block games (pairs of games on random
// openings, as a match plays them), until each pairing has Games games. Block k of a
// pairing has the seed Seed + k, so a run stopped and started again plays the same blocks.
type LadderPlay struct {
	// Bots are the bots, weakest first.
	Bots   []string
	NewBot func(name string) (bot.Bot, error)
	Size   int
	Supply game.Supply
	Seed   uint64
	// Games is what each pairing is to have, Block the games of a block (even), Reach how
	// many of the next bots each meets; Workers how many games are played at once.
	Games, Block, Reach, Workers int
}

// Check reports whether the settings make a ladder.
func (l *LadderPlay) Check() error {
	switch {
	case len(l.Bots) < 2:
		return errors.New("--bots must name at least two bots")
	case l.Block < 2 || l.Block%2 != 0:
		return fmt.Errorf("--block must be an even number from 2, not %d", l.Block)
	case l.Games < 1 || l.Reach < 1:
		return errors.New("--games and --reach must be at least 1")
	}
	return nil
}

// Pairing is two bots of a ladder to play, the stronger (later in Bots) first.
type Pairing struct{ A, B string }

// BlockError is a block not played to its end: ctx's error when interrupted, else a bot's.
// The blocks before it are saved; it is lost.
type BlockError struct {
	Pairing
	Err error
}

func (e *BlockError) Error() string { return fmt.Sprintf("%s vs %s: %v", e.A, e.B, e.Err) }
func (e *BlockError) Unwrap() error { return e.Err }

// todo returns the pairings that lack games after blocks, and the games each pairing
// has, either way round.
func (l *LadderPlay) todo(blocks []Block) ([]Pairing, map[Pairing]int) {
	have := map[Pairing]int{}
	for _, b := range blocks {
		if b.Size == l.Size && b.Supply == l.Supply.String() {
			have[Pairing{b.A, b.B}] += b.Games
			have[Pairing{b.B, b.A}] += b.Games
		}
	}
	var todo []Pairing
	for i := range l.Bots {
		for j := i + 1; j <= i+l.Reach && j < len(l.Bots); j++ {
			if p := (Pairing{l.Bots[j], l.Bots[i]}); have[p] < l.Games {
				todo = append(todo, p)
			}
		}
	}
	return todo, have
}

// GamesLeft is how many games Play plays after blocks: whole blocks.
func (l *LadderPlay) GamesLeft(blocks []Block) int {
	todo, have := l.todo(blocks)
	n := 0
	for _, p := range todo {
		n += (l.Games - have[p] + l.Block - 1) / l.Block * l.Block
	}
	return n
}

// Play plays the blocks still to play after blocks, pairing by pairing, and calls save
// with each block as it ends and the match it came from (an error of save stops the run
// and is returned as it is); played is told of each game as it ends. It returns the
// blocks saved, and a *BlockError for a block not played to its end.
func (l *LadderPlay) Play(ctx context.Context, blocks []Block, played func(), save func(Block, *Config) error) (int, error) {
	todo, have := l.todo(blocks)
	saved := 0
	for _, p := range todo {
		for have[p] < l.Games {
			cfg := &Config{A: p.A, B: p.B, Size: l.Size, Supply: l.Supply, Seed: l.Seed + uint64(countBlocks(blocks, p, l.Size, l.Supply.String())),
				Pairs: l.Block / 2, Workers: l.Workers, NewBot: l.NewBot}
			b, res, err := PlayBlock(ctx, cfg, played)
			if err == nil && res.Pairs < cfg.Pairs {
				err = cmp.Or(ctx.Err(), fmt.Errorf("%d of %d pairs played", res.Pairs, cfg.Pairs))
			}
			if err != nil {
				return saved, &BlockError{p, err}
			}
			if err := save(b, cfg); err != nil {
				return saved, err
			}
			blocks = append(blocks, b)
			have[p] += b.Games
			have[Pairing{p.B, p.A}] += b.Games
			saved++
		}
	}
	return saved, nil
}

// countBlocks counts the blocks of pairing p, either way round, at a size and supply.
func countBlocks(blocks []Block, p Pairing, size int, supply string) int {
	n := 0
	for _, b := range blocks {
		if b.Size == size && b.Supply == supply && (b.A == p.A && b.B == p.B || b.A == p.B && b.B == p.A) {
			n++
		}
	}
	return n
}

// PlayBlock plays a block of the ladder and returns it with the match's result. The
// block's outcomes are counted as each pair ends, and the pair let go: a block keeps
// counts, not games, so its memory does not grow with the block's size.
func PlayBlock(ctx context.Context, cfg *Config, played func()) (Block, *Result, error) {
	counts := map[Outcome]int{} // by opener, swap and score; Games 0
	res, err := Run(ctx, cfg, played, func(q *Pair, r *Result) bool {
		for _, o := range NewBlock(cfg, r, []*Pair{q}).Outcomes {
			n := o.Games
			o.Games = 0
			counts[o] += n
		}
		return true
	})
	if err != nil {
		return Block{}, res, err
	}
	b := NewBlock(cfg, res, nil)
	for o, n := range counts {
		o.Games = n
		b.Outcomes = append(b.Outcomes, o)
	}
	// In NewBlock's order: by opener, not swapped first, by score.
	slices.SortFunc(b.Outcomes, func(x, y Outcome) int {
		if c := strings.Compare(x.Opener, y.Opener); c != 0 {
			return c
		}
		if x.Swapped != y.Swapped {
			if x.Swapped {
				return 1
			}
			return -1
		}
		return cmp.Compare(x.Score, y.Score)
	})
	return b, res, nil
}

// AppendBlock appends the block b to the ladder file f as a line of JSON, synced to the
// disk: a ladder played for hours keeps every block that ended.
func AppendBlock(f *os.File, b Block) error {
	line, err := json.Marshal(b)
	if err == nil {
		_, err = f.Write(append(line, '\n'))
	}
	if err == nil {
		err = f.Sync()
	}
	return err
}
