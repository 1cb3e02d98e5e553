package match

import (
	"fmt"
	"io"
	"math"
	"text/tabwriter"
	"time"

	"github.com/ponte/ponte/internal/numtext"
	"github.com/ponte/ponte/internal/termtext"
)

// ResultJSON is a match's result as ponte match --json prints it.
type ResultJSON struct {
	A           string    `json:"a"`
	B           string    `json:"b"`
	Size        int       `json:"size"`
	Supply      string    `json:"supply"`
	Seed        uint64    `json:"seed"`
	Games       int       `json:"games"`
	Pairs       int       `json:"pairs"`
	Wins        int       `json:"wins"`
	Draws       int       `json:"draws"`
	Losses      int       `json:"losses"`
	Pentanomial [5]int    `json:"pentanomial"`
	Score       *float64  `json:"score"`
	Elo         *float64  `json:"elo"`
	EloLo       *float64  `json:"elo_lo"`
	EloHi       *float64  `json:"elo_hi"`
	SPRT        *string   `json:"sprt"`
	Elo0        *float64  `json:"elo0,omitempty"`
	Elo1        *float64  `json:"elo1,omitempty"`
	LLR         *float64  `json:"llr"`
	LLRLo       *float64  `json:"llr_lo"`
	LLRHi       *float64  `json:"llr_hi"`
	Bots        []BotCost `json:"bots"`
}

// BotCost is a bot's cost per turn in a match.
type BotCost struct {
	Name            string   `json:"name"`
	Turns           int64    `json:"turns"`
	MsPerTurn       float64  `json:"ms_per_turn"`
	PlayoutsPerTurn *float64 `json:"playouts_per_turn"` // null: the bot does not count them
}

// Finite is x, or nil (JSON null) when x is NaN or infinite.
func Finite(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}

// JSON is the result of the match cfg as ponte match --json prints it.
func (r *Result) JSON(cfg *Config) *ResultJSON {
	e := r.Pentanomial.Elo()
	m := &ResultJSON{A: cfg.A, B: cfg.B, Size: cfg.Size, Supply: cfg.Supply.String(), Seed: cfg.Seed,
		Games: r.Games(), Pairs: r.Pairs, Wins: r.Wins, Draws: r.Draws, Losses: r.Losses,
		Pentanomial: r.Pentanomial, Score: Finite(r.Score()), Elo: Finite(e.Value), EloLo: Finite(e.Lo), EloHi: Finite(e.Hi)}
	if t := cfg.SPRT; t != nil {
		v := r.Verdict.String()
		lo, hi := t.Bounds()
		m.SPRT, m.Elo0, m.Elo1 = &v, &t.Elo0, &t.Elo1
		m.LLR, m.LLRLo, m.LLRHi = Finite(r.LLR), &lo, &hi
	}
	for i, name := range []string{cfg.A, cfg.B} {
		u := r.Usage[i]
		c := BotCost{Name: name, Turns: u.Turns, MsPerTurn: u.MsPerTurn()}
		if p, ok := u.PlayoutsPerTurn(); ok {
			c.PlayoutsPerTurn = &p
		}
		m.Bots = append(m.Bots, c)
	}
	return m
}

// SignedElo writes an Elo difference with its sign: "+52.3", "-7.0", "+inf".
func SignedElo(x float64) string {
	switch {
	case math.IsNaN(x):
		return "n/a"
	case math.IsInf(x, 1):
		return "+inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	return fmt.Sprintf("%+.1f", x)
}

// WriteText prints the result of the match cfg for a reader, elapsed its time.
func (r *Result) WriteText(w io.Writer, cfg *Config, elapsed time.Duration) {
	safe, plural := termtext.Safe, termtext.Plural
	fmt.Fprintf(w, "%s vs %s: %d %s (%d %s), %d×%d, supply %s, seed %d, %s\n",
		safe(cfg.A), safe(cfg.B), r.Games(), plural(r.Games(), "game", "games"), r.Pairs, plural(r.Pairs, "pair", "pairs"),
		cfg.Size, cfg.Size, cfg.Supply, cfg.Seed, termtext.Seconds(elapsed.Seconds()))
	if r.Pairs == 0 {
		fmt.Fprintln(w, "no pair finished")
		return
	}
	fmt.Fprintf(w, "%s: %d %s, %d %s, %d %s; score %.1f%%\n", safe(cfg.A),
		r.Wins, plural(r.Wins, "win", "wins"), r.Draws, plural(r.Draws, "draw", "draws"), r.Losses, plural(r.Losses, "loss", "losses"),
		100*r.Score())
	e := r.Pentanomial.Elo()
	fmt.Fprintf(w, "Elo %s [%s, %s] (95%%; pairs by A's points 0, ½, 1, 1½, 2: %s)\n",
		SignedElo(e.Value), SignedElo(e.Lo), SignedElo(e.Hi), r.Pentanomial)
	if t := cfg.SPRT; t != nil {
		lo, hi := t.Bounds()
		fmt.Fprintf(w, "SPRT [%g, %g], alpha %g, beta %g: LLR %.2f (%.2f, %.2f): %s\n",
			t.Elo0, t.Elo1, t.Alpha, t.Beta, r.LLR, lo, hi, r.Verdict)
	}
	for i, name := range []string{cfg.A, cfg.B} {
		u := r.Usage[i]
		line := fmt.Sprintf("%s: %.2f ms per turn", safe(name), u.MsPerTurn())
		if p, ok := u.PlayoutsPerTurn(); ok {
			line += fmt.Sprintf(", %.0f playouts per turn", p)
		}
		fmt.Fprintln(w, line)
	}
}

// interval writes a rating's interval, an open end as -inf or +inf: "[-35, +40]".
func interval(lo, hi *float64) string {
	l, h := "-inf", "+inf"
	if lo != nil {
		l = fmt.Sprintf("%+.0f", *lo)
	}
	if hi != nil {
		h = fmt.Sprintf("%+.0f", *hi)
	}
	return "[" + l + ", " + h + "]"
}

// perTurn writes playouts per turn, "-" for a bot that does not count them.
func perTurn(p *float64) string {
	if p == nil {
		return "-"
	}
	return fmt.Sprintf("%.0f", *p)
}

// WriteText prints the ladder's ratings as a table (ponte bots).
func (fit *LadderFit) WriteText(w io.Writer) {
	fmt.Fprintf(w, "%d×%d, supply %s: %s ladder games; Elo over %s, 95%% intervals from %d bootstraps\n",
		fit.Size, fit.Size, fit.Supply, numtext.Thousands(int64(fit.Games)), termtext.Safe(fit.Anchor), fit.Bootstraps)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "bot\tgames\trating\t95% interval\tms/turn\tplayouts/turn\t")
	for _, r := range fit.Ratings {
		fmt.Fprintf(tw, "%s\t%d\t%+.0f\t%s\t%.2f\t%s\t\n", termtext.Safe(r.Name), r.Games, r.Rating, interval(r.RatingLo, r.RatingHi),
			r.MsPerTurn, perTurn(r.PlayoutsPerTurn))
	}
	tw.Flush()
}

// Strength says the rating of bot in the ladder on a board, or that the ladder does
// not rate it: for an opening atlas played by bot.
func Strength(bot string, size int, supply string) string {
	blocks, err := Ladder()
	if err != nil {
		return "ladder rating: the ladder cannot be read: " + err.Error()
	}
	fit, err := FitLadder(blocks, "greedy", size, supply, 100, 1)
	if err == nil {
		for _, r := range fit.Ratings {
			if r.Name != bot {
				continue
			}
			iv := func(x *float64) string {
				if x == nil {
					return "open"
				}
				return fmt.Sprintf("%+.0f", *x)
			}
			return fmt.Sprintf("ladder rating %+.0f [%s, %s] Elo over greedy (%d×%d ladder, %d games)", r.Rating, iv(r.RatingLo), iv(r.RatingHi), size, size, r.Games)
		}
	}
	return fmt.Sprintf("ladder rating: %s is not in the %d×%d ladder ponte holds (match/ladder.jsonl; ponte bots --play adds it)", bot, size, size)
}
