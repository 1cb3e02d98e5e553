package store

import (
	"context"
	"math"
	"testing"

	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/ingest"
)

// Who is a bot is said once, by game.IsBot; the store's SQL (botSQL, which the statistics'
// populations and games.parquet's population use) says the same of every stored game:
// self-play, Abstract Play's is_ai, and the players named with --bots.
func TestBotSQLIsGameIsBot(t *testing.T) {
	d := openTemp(t)
	ingestInto(t, d, Options{}, derivedSample...)
	d.Close()
	r, err := OpenReader(d.path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	ctx := context.Background()
	for _, bots := range []string{"", "Marta, Elena"} {
		f := Filter{Bots: bots}
		var want []bool
		err := r.Records(ctx, f, LegalOnly, func(rec *ingest.Record, _ bool) error {
			want = append(want, game.IsBot(rec.Tag("Site"), rec.Tag("Light"), rec.Tag("Dark"), f.BotNames(), func(name string) (string, bool) {
				for _, tag := range rec.Tags {
					if tag.Name == name {
						return tag.Value, true
					}
				}
				return "", false
			}))
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		i, bots := 0, 0
		err = r.LegalGames(ctx, f, math.MinInt64, math.MaxInt64, func(g *LegalGame) error {
			if i < len(want) && g.Bot != want[i] {
				t.Errorf("--bots %q: game %d: bot %v in SQL, %v by game.IsBot", f.Bots, g.ID, g.Bot, want[i])
			}
			if g.Bot {
				bots++
			}
			i++
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if i != len(want) || bots == 0 || bots == i {
			t.Errorf("--bots %q: %d legal games read, %d records, %d bots': want both populations", f.Bots, i, len(want), bots)
		}
	}
}
