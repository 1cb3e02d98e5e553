package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/vbauerster/mpb/v8"

	"github.com/ponte/ponte/bot"
	"github.com/ponte/ponte/match"
	"github.com/ponte/ponte/replay"
)

// machine is where and when a timing pass ran.
type machine struct {
	CPU        string    `json:"cpu"`
	GoMaxProcs int       `json:"gomaxprocs"`
	Start      time.Time `json:"start"`
	LoadStart  string    `json:"load_start"`
	LoadEnd    string    `json:"load_end"`
}

// botTimingReport is `ponte bots --time --json`.
type botTimingReport struct {
	Size      int               `json:"size"`
	Supply    string            `json:"supply"`
	Positions int               `json:"positions"`
	Rounds    int               `json:"rounds"`
	Machine   machine           `json:"machine"`
	Bots      []botTimingRating `json:"bots"`
}

// botTimingRating is a bot's rating from the ladder (when it has one) and its timing now.
type botTimingRating struct {
	match.BotTiming
	Rating   *float64 `json:"rating"`
	RatingLo *float64 `json:"rating_lo"`
	RatingHi *float64 `json:"rating_hi"`
}

// runBotTiming times the table's bots (or --bots) in one pass and prints them.
func runBotTiming(s *streams, opts *botsOptions, fit *match.LadderFit) error {
	names := make([]string, 0, len(fit.Ratings))
	if opts.botsSet {
		for _, n := range strings.Split(opts.bots, ",") {
			names = append(names, strings.TrimSpace(n))
		}
	} else {
		for _, r := range fit.Ratings {
			names = append(names, r.Name)
		}
	}
	o := bot.Options{Workers: 1}
	for _, n := range names {
		if _, err := newBot(n, o); err != nil {
			return fmt.Errorf("--bots: %w", err)
		}
	}
	supply, ok := replay.ParseSupply(opts.supply)
	if !ok || opts.supply == "" {
		return fmt.Errorf("--supply %q: must be \"unlimited\" or \"40/15\"", opts.supply)
	}
	t := &match.Timing{Bots: names, Size: opts.size, Supply: supply, Positions: opts.positions, Rounds: opts.rounds, Seed: opts.seed,
		NewBot: func(name string) (bot.Bot, error) { return newBot(name, o) }}
	if err := t.Check(); err != nil {
		return fmt.Errorf("--time: %w", err)
	}
	m := machine{CPU: cpuModel(), GoMaxProcs: runtime.GOMAXPROCS(0), Start: time.Now().UTC().Truncate(time.Second), LoadStart: loadAverage()}
	var done int64
	bar := startStage(s.err, opts.quiet, func(p *mpb.Progress) *phase {
		return newCountBar(p, "timing", int64(t.Turns()), "turns", nil)
	})
	timings, err := t.Run(s.ctx, func() { done++; bar.set(done) })
	bar.end(err == nil)
	m.LoadEnd = loadAverage()
	if err != nil && s.ctx.Err() == nil {
		fmt.Fprintf(s.err, "ponte bots: %s (a bug in the bot: please report it)\n", safeErr(err))
		return &exitError{exitInternal}
	}
	rated := map[string]match.Rating{}
	for _, r := range fit.Ratings {
		rated[r.Name] = r
	}
	rep := botTimingReport{Size: opts.size, Supply: supply.String(), Positions: opts.positions, Rounds: opts.rounds, Machine: m}
	for _, tm := range timings {
		b := botTimingRating{BotTiming: tm}
		if r, ok := rated[tm.Name]; ok {
			v := r.Rating
			b.Rating, b.RatingLo, b.RatingHi = &v, r.RatingLo, r.RatingHi
		}
		rep.Bots = append(rep.Bots, b)
	}
	if opts.json {
		if err := json.NewEncoder(s.out).Encode(rep); err != nil {
			return err
		}
	} else {
		writeBotTiming(s.out, fit, &rep)
	}
	if s.ctx.Err() != nil {
		fmt.Fprintf(s.err, "ponte bots: interrupted after %d of %d turns; the table shows what was timed\n", done, t.Turns())
		return interrupted
	}
	return nil
}

// writeBotTiming prints the timing pass with the ladder's ratings.
func writeBotTiming(w io.Writer, fit *match.LadderFit, rep *botTimingReport) {
	fmt.Fprintf(w, "%d×%d, supply %s: ratings from %s ladder games (Elo over %s); time per turn measured now, in one pass:\n",
		rep.Size, rep.Size, rep.Supply, thousands(int64(fit.Games)), safe(fit.Anchor))
	fmt.Fprintf(w, "%d positions × %d rounds, the bots taking turns; %s, GOMAXPROCS %d, %s, load average %s → %s\n",
		rep.Positions, rep.Rounds, safe(rep.Machine.CPU), rep.Machine.GoMaxProcs, rep.Machine.Start.Format(time.RFC3339), rep.Machine.LoadStart, rep.Machine.LoadEnd)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "bot\trating\t95% interval\tturns\tms/turn (median)\tquartiles\tplayouts/turn\t")
	for _, b := range rep.Bots {
		rating, interval := "-", "-"
		if b.Rating != nil {
			rating = fmt.Sprintf("%+.0f", *b.Rating)
			lo, hi := "-inf", "+inf"
			if b.RatingLo != nil {
				lo = fmt.Sprintf("%+.0f", *b.RatingLo)
			}
			if b.RatingHi != nil {
				hi = fmt.Sprintf("%+.0f", *b.RatingHi)
			}
			interval = "[" + lo + ", " + hi + "]"
		}
		p := "-"
		if b.PlayoutsPerTurn != nil {
			p = fmt.Sprintf("%.0f", *b.PlayoutsPerTurn)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%.2f\t%.2f–%.2f\t%s\t\n", safe(b.Name), rating, interval, b.Turns, b.MsPerTurn, b.MsP25, b.MsP75, p)
	}
	tw.Flush()
}

// cpuModel reads the processor's name from /proc/cpuinfo, "unknown" where there is none.
func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return "unknown CPU"
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown CPU"
}

// loadAverage reads the 1-minute load average, "?" where there is none.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	if f := strings.Fields(string(b)); len(f) > 0 {
		return f[0]
	}
	return "?"
}
