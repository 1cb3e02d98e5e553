// Command truthset makes the truth set of turn values that `ponte annotate`'s marks are
// measured against, and measures them (docs/annotate.md, "Truth set"):
//
//	go run ./annotate/truthset run --size 8 --positions 40 --shard 1/1 --out DIR
//	go run ./annotate/truthset merge --out truthset.parquet DIR/*.parquet
//	go run ./annotate/truthset marks truthset.parquet
//	go run ./annotate/truthset ceiling --readings readings.csv truthset.parquet
//	go run ./annotate/truthset byplay --games 32 truthset.parquet
//
// run draws the positions of its shard from seeded self-play, chooses each one's
// candidates and plays games out after them until each loss is measured to its standard
// error; it writes its shard's file after every position, and a run again goes on where
// the last one stopped. merge joins shards' files (idempotent); marks reads the truth
// set with the engine at a budget and prints how its marks agree with the measured losses;
// ceiling prints what marks a reading of a given error would reach, and the error of readings;
// byplay reads the candidates by games played out after them and after the best turn.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/ponte/ponte/annotate"
	"github.com/ponte/ponte/bot"
	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/internal/cputime"
	"github.com/ponte/ponte/internal/outfile"
	"github.com/ponte/ponte/internal/subcmd"
	"github.com/ponte/ponte/replay"
)

const usage = `usage:
  truthset run [flags]                  measure the positions of a shard (run --help)
  truthset merge --out FILE FILE...     join shards' files into one truth set
  truthset marks [--engine lore-N] FILE      the engine's marks measured against a truth set
  truthset ceiling [--readings CSV] FILE     the marks a reading of a given error would reach
  truthset byplay [--games N] FILE           the marks of a reading by play, games after each turn
`

func main() {
	subcmd.Main("truthset", usage, map[string]subcmd.Func{
		"run":     run,
		"merge":   merge,
		"marks":   marks,
		"ceiling": ceiling,
		"byplay":  byPlay,
	})
}

// parseShard reads "i/N": shard i of N, i from 1.
func parseShard(s string) (i, n int, err error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return 0, 0, fmt.Errorf("--shard %q: must be i/N with i from 1 to N", s)
	}
	return i, n, nil
}

// ShardPath is the file of shard i of n of a run.
func shardPath(dir string, c annotate.TruthConfig, i, n int) string {
	return filepath.Join(dir, fmt.Sprintf("truthset-%dx%d-seed%d-shard%dof%d.parquet", c.Size, c.Size, c.Seed, i, n))
}

func run(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("truthset run", flag.ContinueOnError)
	c := annotate.DefaultTruthConfig(8)
	fs.IntVar(&c.Size, "size", c.Size, "the board's side")
	positions := fs.Int("positions", 40, "positions of the truth set (numbered from 0), over all shards")
	fs.Uint64Var(&c.Seed, "seed", c.Seed, "the seed the positions and games are drawn from")
	fs.StringVar(&c.Player, "player", c.Player, "the bot of the self-play and of the games played out")
	fs.StringVar(&c.Searcher, "searcher", c.Searcher, "the bot whose search ranks the candidates (arch-N or lore-N)")
	fs.Float64Var(&c.SE, "se", c.SE, "the standard error each measured loss is played to")
	fs.IntVar(&c.Batch, "batch", c.Batch, "games added to a candidate at a time")
	fs.IntVar(&c.MaxGames, "max-games", c.MaxGames, "the cap on a candidate's games")
	fs.IntVar(&c.Workers, "workers", c.Workers, "goroutines playing games")
	shard := fs.String("shard", "1/1", "measure only shard i of N: the positions p with p mod N = i−1")
	dir := fs.String("out", ".", "the folder of the shard's file")
	probe := fs.Int("probe", 4, "self-play games timed first, for the estimate of the run's cost (0: none)")
	estimate := fs.Bool("estimate", false, "print the estimate of the run's cost and stop")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := c.Check(); err != nil {
		return err
	}
	si, sn, err := parseShard(*shard)
	if err != nil {
		return err
	}
	path := shardPath(*dir, c, si, sn)
	var rows []annotate.TruthRow
	if _, err := os.Stat(path); err == nil {
		if rows, err = annotate.ReadTruthSet(path); err != nil {
			return err
		}
	}
	done := map[int32]bool{}
	for _, r := range rows {
		if r.BaseSeed != c.Seed || r.Player != c.Player || r.Searcher != c.Searcher || int(r.Size) != c.Size {
			return fmt.Errorf("%s: made with other settings (%d×%d, seed %d, %s, %s)", path, r.Size, r.Size, r.BaseSeed, r.Player, r.Searcher)
		}
		done[r.Position] = true
	}
	var todo []int
	for p := si - 1; p < *positions; p += sn {
		if !done[int32(p)] {
			todo = append(todo, p)
		}
	}
	fmt.Fprintf(out, "%s: shard %d/%d of %d positions on %d×%d: %d measured, %d to measure\n", path, si, sn, *positions, c.Size, c.Size, len(done), len(todo))
	if len(todo) == 0 {
		return nil
	}
	if *probe > 0 || *estimate {
		n := max(*probe, 1)
		rate, err := probeRate(c, n)
		if err != nil {
			return err
		}
		perPos := gamesPerPosition(c)
		fmt.Fprintf(out, "rate: %.1f self-play games of %s a core-second (%d whole games timed on %d×%d; play-outs from turns %d to %d are shorter)\n",
			rate, c.Player, n, c.Size, c.Size, c.FromTurn, c.ToTurn)
		fmt.Fprintf(out, "estimate: about %d games a position (4 candidates, a paired variance of %.2f a game, standard error %.0f points): %d positions ≈ %.1f core-hours\n",
			perPos, pairedVariance, 100*c.SE, len(todo), float64(perPos*len(todo))/rate/3600)
	}
	if *estimate {
		return nil
	}
	cpu0, wall0 := cputime.Process().Seconds(), time.Now()
	var games atomic.Int64
	for _, p := range todo {
		t0, g0 := time.Now(), games.Load()
		pr, err := c.MeasurePosition(ctx, p, func(n int) { games.Add(int64(n)) })
		if err != nil {
			return err
		}
		merged, err := annotate.MergeTruthSets(rows, pr)
		if err != nil {
			return err
		}
		if err := annotate.WriteTruthSet(ctx, path, merged); err != nil {
			return err
		}
		rows = merged
		fmt.Fprintf(out, "position %d, turn %d: %s in %.0f s;", p, pr[0].Turn, plural(int(games.Load()-g0), "game"), time.Since(t0).Seconds())
		for _, r := range pr {
			if r.Kind == annotate.KindBest.String() {
				fmt.Fprintf(out, " best %s %.3f;", r.Candidate, r.Mean)
				continue
			}
			fmt.Fprintf(out, " %s %s loss %.3f ± %.3f (%d);", r.Kind, r.Candidate, r.Loss, r.LossSE, r.Games)
		}
		fmt.Fprintln(out)
	}
	cpu := cputime.Process().Seconds() - cpu0
	fmt.Fprintf(out, "%d positions, %s in %.0f s, %.0f CPU-seconds: %.1f games a core-second\n",
		len(todo), plural(int(games.Load()), "game"), time.Since(wall0).Seconds(), cpu, float64(games.Load())/cpu)
	return nil
}

// pairedVariance is the variance of the difference of two candidates' results in one pair
// of games, as measured on the pilot truth set: the estimate's games a candidate are
// pairedVariance / SE².
const pairedVariance = 0.35

// gamesPerPosition estimates a position's games: its three candidates to SE, and the best
// as many games as the most of them.
func gamesPerPosition(c annotate.TruthConfig) int {
	n := min(c.MaxGames, max(c.Batch, int(math.Ceil(pairedVariance/(c.SE*c.SE)/float64(c.Batch)))*c.Batch))
	return 4 * n
}

// probeRate plays n self-play games of c.Player on c.Workers goroutines and returns the
// games a core-second (CPU time of the process).
func probeRate(c annotate.TruthConfig, n int) (float64, error) {
	cpu0 := cputime.Process().Seconds()
	errs := make(chan error, n)
	sem := make(chan struct{}, max(c.Workers, 1))
	for i := range n {
		sem <- struct{}{}
		go func() {
			defer func() { <-sem }()
			sides := [2]bot.Bot{}
			for j := range sides {
				b, err := bot.New(c.Player, bot.Options{})
				if err != nil {
					errs <- err
					return
				}
				sides[j] = b
			}
			g, err := replay.NewGame(c.Size, game.Unlimited)
			if err != nil {
				errs <- err
				return
			}
			m := sides[0].Turn(g, randFor(c.Seed, i))
			_, err = annotate.PlayOut(g, m.String(), replay.Light, sides, randFor(c.Seed, i))
			errs <- err
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			return 0, err
		}
	}
	return float64(n) / (cputime.Process().Seconds() - cpu0), nil
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

func merge(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("truthset merge", flag.ContinueOnError)
	to := fs.String("out", "", "the merged truth set (its rows are kept when it exists)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *to == "" || fs.NArg() == 0 {
		return errors.New("merge: --out FILE and the shards' files")
	}
	var sets [][]annotate.TruthRow
	if _, err := os.Stat(*to); err == nil {
		old, err := annotate.ReadTruthSet(*to)
		if err != nil {
			return err
		}
		sets = append(sets, old)
	}
	for _, p := range fs.Args() {
		rows, err := annotate.ReadTruthSet(p)
		if err != nil {
			return err
		}
		sets = append(sets, rows)
	}
	rows, err := annotate.MergeTruthSets(sets...)
	if err != nil {
		return err
	}
	if err := annotate.WriteTruthSet(ctx, *to, rows); err != nil {
		return err
	}
	positions := map[[2]int32]bool{}
	for _, r := range rows {
		positions[[2]int32{r.Size, r.Position}] = true
	}
	fmt.Fprintf(out, "%s: %d positions, %d candidates\n", *to, len(positions), len(rows))
	return nil
}

// randFor is the random source of probe game i.
func randFor(seed uint64, i int) *rand.Rand { return rand.New(rand.NewPCG(seed, uint64(i)|1<<40)) }

func marks(_ context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("truthset marks", flag.ContinueOnError)
	engines := fs.String("engine", annotate.DefaultEngine, "the engines that read the candidates, separated by commas (ponte annotate --engine)")
	contested := fs.Bool("contested", false, "leave out the positions whose best candidate's games were all won or all lost")
	size := fs.Int("size", 0, "read only the positions of this board side (0: all)")
	write := fs.String("write", "", "rewrite this Go file with what each mark of the first engine meant in the truth set (annotate/measured_marks.go)")
	csvOut := fs.String("csv", "", "write every reading to this CSV file (engine, size, position, kind, candidate, measured loss and its standard error, predicted loss, mark)")
	best := fs.String("best", "own", "the turn a loss is measured against: own (the engine's best, as ponte annotate reads) or truth (the truth set's best candidate: the engine's values alone; arch and lore)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return errors.New("marks: one truth set file")
	}
	if *best != "own" && *best != "truth" {
		return fmt.Errorf("marks: --best %q: own or truth", *best)
	}
	if *best == "truth" && *write != "" {
		return errors.New("marks: --write sets what the marks of ponte annotate mean: with --best own only")
	}
	var table []annotate.Reading
	var es []*annotate.Engine
	for _, name := range strings.Split(*engines, ",") {
		e, err := annotate.NewEngine(name, annotate.CalibrationOf(name))
		if err != nil {
			return err
		}
		es = append(es, e)
	}
	rows, err := annotate.ReadTruthSet(fs.Arg(0))
	if err != nil {
		return err
	}
	if *contested {
		rows = contestedOnly(rows)
	}
	if *size > 0 {
		rows = slices.DeleteFunc(rows, func(r annotate.TruthRow) bool { return int(r.Size) != *size })
		if len(rows) == 0 {
			return fmt.Errorf("%s: no position on %d×%d", fs.Arg(0), *size, *size)
		}
	}
	for _, l := range describe(rows) {
		fmt.Fprintln(out, l)
	}
	for _, e := range es {
		c0 := cputime.Process().Seconds()
		read, against := e.ReadTruthSet, "its own best turn"
		if *best == "truth" {
			read, against = e.ReadTruthSetValues, "the truth set's best candidate"
		}
		rs, err := read(rows)
		if err != nil {
			return err
		}
		cpu := cputime.Process().Seconds() - c0
		for _, r := range rs {
			table = append(table, annotate.Reading{TruthReading: r, Engine: e.Bot()})
		}
		fmt.Fprintf(out, "\n%s: %d candidates read by %s against %s, %.2f ms of CPU a candidate\n", fs.Arg(0), len(rs), e.Bot(), against, 1000*cpu/float64(max(len(rs), 1)))
		for _, l := range annotate.Marks(rs).Lines() {
			fmt.Fprintln(out, l)
		}
		if th, err := annotate.FitThresholds(rs); err == nil {
			fmt.Fprintf(out, "thresholds this truth set sets for %s (docs/annotate.md): %s\n", e.Bot(), th)
		}
		if *write != "" && e == es[0] {
			src, err := annotate.MeasuredMarksSource(e.Bot(), fs.Arg(0), rs, "go run ./annotate/truthset marks --engine "+e.Bot()+" --write "+*write+" "+fs.Arg(0))
			if err != nil {
				return err
			}
			if err := outfile.WriteFile(context.Background(), *write, func(w io.Writer) error { _, err := w.Write(src); return err }); err != nil {
				return err
			}
		}
	}
	if *csvOut != "" {
		return writeReadings(*csvOut, table)
	}
	return nil
}

// describe summarises a truth set: its positions, games and paired variance, and the
// measured losses of each kind of candidate.
func describe(rows []annotate.TruthRow) []string {
	positions := map[[2]int32]bool{}
	var games, decided, better int
	var pv, pn float64
	type tally struct {
		n, over10, over25 int
		sum               float64
	}
	kinds := map[string]*tally{}
	bestMean := map[[2]int32]float64{}
	for _, r := range rows {
		key := [2]int32{r.Size, r.Position}
		positions[key] = true
		games += int(r.Games)
		if r.Kind == annotate.KindBest.String() {
			bestMean[key] = r.Mean
			if r.Mean == 0 || r.Mean == 1 {
				decided++
			}
			continue
		}
		if r.Games >= 64 { // the variance of a pair of games, from the loss's standard error
			pv += r.LossSE * r.LossSE * float64(r.Games)
			pn++
		}
		if r.Loss < -2*r.LossSE {
			better++
		}
		t := kinds[r.Kind]
		if t == nil {
			t = &tally{}
			kinds[r.Kind] = t
		}
		t.n++
		t.sum += r.Loss
		if r.Loss >= annotate.PrecisionLoss {
			t.over10++
		}
		if r.Loss >= annotate.RecallLoss {
			t.over25++
		}
	}
	lines := []string{fmt.Sprintf("%d positions (%d with the best candidate's games all won or all lost), %d candidates, %d games; variance of a pair of games %.2f (candidates of 64 games or more)",
		len(positions), decided, len(rows), games, pv/max(pn, 1))}
	lines = append(lines, fmt.Sprintf("candidates measured better than the searcher's best by more than 2 standard errors: %d", better))
	for _, k := range []string{"top", "random"} {
		t := kinds[k]
		if t == nil {
			continue
		}
		lines = append(lines, fmt.Sprintf("%s candidates: %d, measured loss %.1f points on average; ≥ 10 points %d, ≥ 25 points %d",
			k, t.n, 100*t.sum/float64(t.n), t.over10, t.over25))
	}
	return lines
}

// contestedOnly returns the rows of the positions whose best candidate's games were not all
// won or all lost.
func contestedOnly(rows []annotate.TruthRow) []annotate.TruthRow {
	decided := map[[2]int32]bool{}
	for _, r := range rows {
		if r.Kind == annotate.KindBest.String() && (r.Mean == 0 || r.Mean == 1) {
			decided[[2]int32{r.Size, r.Position}] = true
		}
	}
	var out []annotate.TruthRow
	for _, r := range rows {
		if !decided[[2]int32{r.Size, r.Position}] {
			out = append(out, r)
		}
	}
	return out
}

// writeReadings writes rows to path as a readings file, replacing it whole.
func writeReadings(path string, rows []annotate.Reading) error {
	return outfile.WriteFile(context.Background(), path, func(w io.Writer) error { return annotate.WriteReadings(w, rows) })
}
