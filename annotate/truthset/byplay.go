package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/ponte/ponte/annotate"
	"github.com/ponte/ponte/internal/cputime"
)

// byPlayThresholds are the losses from which the tables of byplay mark a turn mistake.
var byPlayThresholds = []float64{0.10, 0.15, 0.20, 0.25, 0.30}

func byPlay(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("truthset byplay", flag.ContinueOnError)
	games := fs.Int("games", 32, "games played out after each turn and after the best turn")
	bests := fs.String("best", "lore-1000,lore-200,truth", "where the best turn comes from, separated by commas: an engine's search of the position (lore-N) or truth (the truth set's best candidate)")
	player := fs.String("player", "", "the bots of the games (default: the truth set's player)")
	workers := fs.Int("workers", 2, "positions read at once")
	size := fs.Int("size", 0, "read only the positions of this board side (0: all)")
	csvOut := fs.String("csv", "", "write every reading to this CSV file (as truthset marks --csv: engine play<games>-<best>)")
	salt := fs.Uint64("salt", annotate.DefaultByPlaySalt, "game k of a position is PCG(its truth set seed ^ salt, k); 0 plays the truth set's own games")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return errors.New("byplay: one truth set file")
	}
	rows, err := annotate.ReadTruthSet(fs.Arg(0))
	if err != nil {
		return err
	}
	if *size > 0 {
		rows = slices.DeleteFunc(rows, func(r annotate.TruthRow) bool { return int(r.Size) != *size })
		if len(rows) == 0 {
			return fmt.Errorf("%s: no position on %d×%d", fs.Arg(0), *size, *size)
		}
	}
	c := annotate.ByPlayConfig{Player: *player, Games: *games, Bests: strings.Split(*bests, ","), Salt: *salt, Workers: *workers}
	if c.Player == "" {
		c.Player = rows[0].Player
	}
	for _, l := range describe(rows) {
		fmt.Fprintln(out, l)
	}
	var played atomic.Int64
	start, c0 := time.Now(), cputime.Process().Seconds()
	last := start
	rs, err := annotate.ReadByPlay(ctx, rows, c, func(n int) {
		if played.Add(int64(n))%2000 == 0 && time.Since(last) > 10*time.Second {
			last = time.Now()
			fmt.Fprintf(os.Stderr, "byplay: %d games played, %s\n", played.Load(), time.Since(start).Round(time.Second))
		}
	})
	if err != nil {
		return err
	}
	cpu := cputime.Process().Seconds() - c0
	candidates := len(rs) / len(c.Bests)
	fmt.Fprintf(out, "\n%s: %d candidates read by play: %d games of %s after the turn and after the best turn, game k of both from the same random numbers (salt %#x); %d games, %.0f s of CPU (%.1f ms a game)\n",
		fs.Arg(0), candidates, c.Games, c.Player, c.Salt, played.Load(), cpu, 1000*cpu/float64(max(played.Load(), 1)))
	var counts []int
	for n := 8; n < c.Games; n *= 2 {
		counts = append(counts, n)
	}
	counts = append(counts, c.Games)
	for _, src := range c.Bests {
		for _, n := range counts {
			var tr []annotate.TruthReading
			for _, r := range rs {
				if r.Source == src {
					tr = append(tr, annotate.TruthReading{TruthRow: r.TruthRow, Predicted: r.Loss(n)})
				}
			}
			f := annotate.Marks(tr)
			fmt.Fprintf(out, "\nbest turn of %s, %d games: rank correlation %.2f (95%% interval %.2f–%.2f), mean absolute error %.1f points\n\n",
				src, n, f.Spearman.Value, f.Spearman.Lo, f.Spearman.Hi, 100*f.MAE.Value)
			fmt.Fprintln(out, "| t (points) | turns marked | precision (≥ 10) | recall (≥ 25) | false alarms (≤ 3) | the bars |\n|---|---|---|---|---|---|")
			for _, t := range byPlayThresholds {
				g, marked := annotate.MarksFrom(tr, t)
				met := "no"
				if g.Precision.Rate() >= 0.85 && g.Recall.Rate() >= 0.75 && g.FalseAlarms.Rate() <= 0.05 {
					met = "met"
				}
				fmt.Fprintf(out, "| %.0f | %d | %s | %s | %s | %s |\n", 100*t, marked, g.Precision.Percent(), g.Recall.Percent(), g.FalseAlarms.Percent(), met)
			}
		}
	}
	if *csvOut == "" {
		return nil
	}
	var table []annotate.Reading
	for _, r := range rs {
		loss := r.Loss(c.Games)
		table = append(table, annotate.Reading{Engine: "play" + strconv.Itoa(c.Games) + "-" + r.Source,
			TruthReading: annotate.TruthReading{TruthRow: r.TruthRow, Predicted: loss, Mark: annotate.MarkOf(loss)}})
	}
	return writeReadings(*csvOut, table)
}
