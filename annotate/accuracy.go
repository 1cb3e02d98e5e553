package annotate

import (
	"context"
	"fmt"
	"strings"

	"github.com/ponte/ponte/internal/numtext"
	"github.com/ponte/ponte/internal/termtext"
	"github.com/ponte/ponte/stats"
	"github.com/ponte/ponte/store"
)

// Accuracy is the accuracy of the players of the games f selects in population,
// by the engine's reading of their turns; nil when none is annotated. The readings are
// tallied as they stream: the memory does not grow with them.
func Accuracy(ctx context.Context, db EvalSource, f stats.Filter, population string) ([]stats.Accuracy, error) {
	var t stats.AccuracyTally
	turns := 0
	err := db.EachEval(ctx, AccuracyFilter(f, population), func(e store.TurnEval) error {
		mark := ""
		if e.Mark != nil {
			mark = *e.Mark
		}
		t.Add(stats.TurnLoss{Game: e.Game, Player: e.Player, Bot: e.Bot, Loss: e.Loss, Mark: mark})
		turns++
		return nil
	})
	if err != nil || turns == 0 {
		return nil, err
	}
	return t.Accuracies(), nil
}

// EvalSource streams the stored readings: a *store.Reader.
type EvalSource interface {
	EachEval(ctx context.Context, f store.Filter, fn func(store.TurnEval) error) error
}

// AccuracyFilter is the filter of the accuracy table: f in the statistics' population.
func AccuracyFilter(f stats.Filter, population string) stats.Filter {
	if population == stats.PopulationPeople || population == stats.PopulationBots {
		f.Population = population
	}
	return f
}

// Summary is the line ponte annotate prints at the end of a run.
func (r *Result) Summary() string {
	var b strings.Builder
	if r.Games > 0 || r.Merged == 0 {
		fmt.Fprintf(&b, "%s: %d %s read, %s positions in %.1f s (%.1f positions/s); ",
			r.Bot, r.Games, termtext.Plural(r.Games, "game", "games"), numtext.Thousands(r.Positions), r.Seconds, r.PositionsPS)
	}
	fmt.Fprintf(&b, "%s rows of the engine's readings stored", numtext.Thousands(r.Stored))
	if r.Merged > 0 {
		fmt.Fprintf(&b, " (%s merged)", numtext.Thousands(r.Merged))
	}
	fmt.Fprintf(&b, ", %s in all", numtext.Thousands(r.Rows))
	if r.Recalibrated > 0 {
		fmt.Fprintf(&b, "; %s recalibrated", numtext.Thousands(r.Recalibrated))
	}
	if r.SkippedGames > 0 {
		fmt.Fprintf(&b, "; %d %s skipped (%s stored turns do not replay)", r.SkippedGames, termtext.Plural(r.SkippedGames, "game", "games"), termtext.Plural(r.SkippedGames, "its", "their"))
	}
	if r.Parquet != "" {
		fmt.Fprintf(&b, "\nparquet: %s", r.Parquet)
	}
	return b.String()
}
