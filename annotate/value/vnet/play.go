package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/ponte/ponte/bot"
	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/ingest"
	"github.com/ponte/ponte/internal/archive"
	"github.com/ponte/ponte/replay"
)

// randomTurnTag is the tag of a record that holds the number of its uniformly random turn.
const randomTurnTag = "RandomTurn"

// playSettings are what a game of play depends on.
type playSettings struct {
	size   int
	seed   uint64
	player string
}

// played is a game of play: its index, its turns, the turn drawn to be random (0: none; a
// turn after the game's end is not played) and the game at its end.
type played struct {
	index  int
	random int
	moves  []replay.Move
	g      *replay.Game
}

// playGame plays game i: fresh bots of each colour, the random source PCG(seed, size<<32|i);
// in half of the games (the source's first draw) one turn from 3 to 40 (its second) is a
// uniformly random legal turn.
func playGame(s playSettings, i int) (*played, error) {
	rng := rand.New(rand.NewPCG(s.seed, uint64(s.size)<<32|uint64(i)))
	g, err := replay.NewGame(s.size, game.Unlimited)
	if err != nil {
		return nil, err
	}
	var sides [2]bot.Bot // by colour
	for k := range sides {
		if sides[k], err = bot.New(s.player, bot.Options{}); err != nil {
			return nil, err
		}
	}
	p := &played{index: i, g: g}
	if rng.IntN(2) == 0 {
		p.random = 3 + rng.IntN(38)
	}
	limit := bot.MaxTurns(s.size)
	for !g.Over() {
		if g.Turn() >= limit {
			return nil, fmt.Errorf("game %d did not end after %d turns", i, limit)
		}
		var m replay.Move
		if g.Turn()+1 == p.random {
			m = bot.Random{}.Turn(g, rng)
		} else {
			m = sides[g.ToMove()].Turn(g, rng)
		}
		if err := g.Play(m); err != nil {
			return nil, fmt.Errorf("game %d: an illegal turn %d (%s): %w", i, g.Turn()+1, m, err)
		}
		p.moves = append(p.moves, m)
	}
	return p, nil
}

// record is the game as a .ponte record: bot.Game.Record's tags, with Event "vnet play",
// GameId "vnet-SIZExSIZE-SEED-INDEX" and, when a random turn was played, RandomTurn.
func (p *played) record(s playSettings) (*ingest.Record, error) {
	res, _ := p.g.Standing()
	bg := &bot.Game{Opener: s.player, Responder: s.player, Size: s.size, Supply: game.Unlimited,
		Moves: p.moves, Swapped: p.g.Swapped(), Result: res, Score: p.g.Score()}
	rec := bg.Record(p.index, s.seed)
	if err := rec.SetTag("Event", "vnet play"); err != nil {
		return nil, err
	}
	if err := rec.SetTag("GameId", fmt.Sprintf("vnet-%dx%d-%d-%d", s.size, s.size, s.seed, p.index)); err != nil {
		return nil, err
	}
	if p.random > 0 && p.random <= len(p.moves) {
		if err := rec.SetTag(randomTurnTag, strconv.Itoa(p.random)); err != nil {
			return nil, err
		}
	}
	return rec, nil
}

func play(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("vnet play", flag.ContinueOnError)
	s := playSettings{}
	fs.IntVar(&s.size, "size", 8, "the board's side")
	fs.Uint64Var(&s.seed, "seed", 777, "the seed: game i is played with the random source PCG(seed, size<<32 | i)")
	fs.StringVar(&s.player, "bot", "lore-100", "the bot of both colours")
	from := fs.Int("from", 0, "the first game's index: a run stopped after game k goes on with --from k+1 into another file")
	n := fs.Int("games", 100, "games to play")
	workers := fs.Int("workers", 2, "games played at once")
	to := fs.String("out", "", "the archive (.ponte, .ponte.gz or .ponte.zst), written when the run ends (or is interrupted); an existing one is replaced")
	if err := fs.Parse(args); err != nil {
		return err
	}
	switch {
	case *to == "" || fs.NArg() > 0:
		return errors.New("play: --out FILE and no other argument")
	case s.size < game.MinSize || s.size > game.MaxSize:
		return fmt.Errorf("play: --size %d: must be %d to %d", s.size, game.MinSize, game.MaxSize)
	case *n < 1 || *from < 0 || *workers < 1:
		return errors.New("play: --games and --workers must be at least 1, --from at least 0")
	}
	if _, err := bot.New(s.player, bot.Options{}); err != nil {
		return err
	}
	w, err := newRecordWriter(ctx, *to)
	if err != nil {
		return err
	}
	defer w.abort()
	feed, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan int)
	type result struct {
		p   *played
		err error
	}
	results := make(chan result)
	var wg sync.WaitGroup
	for range *workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				p, err := playGame(s, i)
				results <- result{p, err}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for i := *from; i < *from+*n; i++ {
			select {
			case jobs <- i:
			case <-feed.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(results) }()
	// the games are written in their order: those finished early wait for the others
	start := time.Now()
	waiting := map[int]*played{}
	next := *from
	var firstErr error
	for r := range results {
		if r.err != nil {
			firstErr = cmpErr(firstErr, r.err)
			cancel()
			continue
		}
		waiting[r.p.index] = r.p
		for p := waiting[next]; p != nil && firstErr == nil; p = waiting[next] {
			delete(waiting, next)
			rec, err := p.record(s)
			if err == nil {
				err = w.write(rec)
			}
			if err != nil {
				firstErr = err
				cancel()
				break
			}
			next++
			if (next-*from)%1000 == 0 {
				fmt.Fprintf(out, "games %d to %d played, %.1f a second\n", *from, next-1, float64(next-*from)/time.Since(start).Seconds())
			}
		}
	}
	if firstErr == nil && ctx.Err() != nil {
		firstErr = ctx.Err()
	}
	if err := w.commit(); err != nil {
		return err
	}
	if firstErr != nil {
		if next == *from {
			return fmt.Errorf("no game written to %s: %w", *to, firstErr)
		}
		return fmt.Errorf("games %d to %d written to %s; go on with --from %d into another file: %w", *from, next-1, *to, next, firstErr)
	}
	fmt.Fprintf(out, "%s: games %d to %d of %d×%d, seed %d, %s\n", *to, *from, next-1, s.size, s.size, s.seed, s.player)
	return nil
}

func cmpErr(first, err error) error {
	if first != nil {
		return first
	}
	return err
}

// recordWriter writes .ponte records to an archive.
type recordWriter struct {
	out *archive.Output
	w   *ingest.Writer
}

func newRecordWriter(ctx context.Context, path string) (*recordWriter, error) {
	out, err := archive.Create(ctx, path, os.Stdout)
	if err != nil {
		return nil, err
	}
	return &recordWriter{out: out, w: ingest.NewWriter(out.W, ingest.FormatPonte)}, nil
}

func (w *recordWriter) write(rec *ingest.Record) error { return w.w.Write(rec) }

// commit keeps what was written.
func (w *recordWriter) commit() error {
	if err := w.w.Flush(); err != nil {
		return err
	}
	return w.out.Commit()
}

func (w *recordWriter) abort() { w.out.Abort() }

// jsonGame is a game of the first generator's JSON Lines (/work/compute/vnet/gen).
type jsonGame struct {
	Size  int      `json:"size"`
	Index int      `json:"game"`
	Dev   int      `json:"dev"` // the random turn, 0 none
	Moves []string `json:"moves"`
	Light float64  `json:"light"` // Light's score
}

// convert writes the games of the first generator's JSON Lines as play's records, in the
// order of the file; a line that is not a whole game (the last one of a run stopped) is
// left out and said.
func convert(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("vnet convert", flag.ContinueOnError)
	to := fs.String("out", "", "the archive (.ponte, .ponte.gz or .ponte.zst)")
	seed := fs.Uint64("seed", 777, "the seed the games were played with")
	player := fs.String("bot", "lore-100", "the bot that played them")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *to == "" || fs.NArg() == 0 {
		return errors.New("convert: --out FILE and the JSON Lines files")
	}
	w, err := newRecordWriter(ctx, *to)
	if err != nil {
		return err
	}
	defer w.abort()
	games := 0
	for _, path := range fs.Args() {
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for line := 1; sc.Scan(); line++ {
			if err := ctx.Err(); err != nil {
				f.Close()
				return err
			}
			var jg jsonGame
			if err := json.Unmarshal(sc.Bytes(), &jg); err != nil {
				fmt.Fprintf(out, "%s:%d: left out: %v\n", path, line, err)
				continue
			}
			p, err := replayed(jg)
			if err != nil {
				f.Close()
				return fmt.Errorf("%s:%d: %w", path, line, err)
			}
			rec, err := p.record(playSettings{size: jg.Size, seed: *seed, player: *player})
			if err == nil {
				err = w.write(rec)
			}
			if err != nil {
				f.Close()
				return err
			}
			games++
		}
		err = sc.Err()
		f.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	if err := w.commit(); err != nil {
		return err
	}
	fmt.Fprintf(out, "%s: %d games\n", *to, games)
	return nil
}

// replayed replays a game of the JSON Lines and checks its result.
func replayed(jg jsonGame) (*played, error) {
	g, err := replay.NewGame(jg.Size, game.Unlimited)
	if err != nil {
		return nil, fmt.Errorf("game %d: %w", jg.Index, err)
	}
	p := &played{index: jg.Index, random: jg.Dev, g: g}
	for k, tok := range jg.Moves {
		m, err := g.ReadTurn(k+1, tok)
		if err == nil {
			err = g.Play(m)
		}
		if err != nil {
			return nil, fmt.Errorf("game %d, turn %d %q: %w", jg.Index, k+1, tok, err)
		}
		p.moves = append(p.moves, m)
	}
	if !g.Over() {
		return nil, fmt.Errorf("game %d: not over after its %d turns", jg.Index, len(jg.Moves))
	}
	if light := g.ResultFor(replay.Light); light != jg.Light {
		return nil, fmt.Errorf("game %d: Light's score %v, the replay's %v", jg.Index, jg.Light, light)
	}
	return p, nil
}
