package match

import (
	"context"
	"testing"

	"github.com/ponte/ponte/bot"
	"github.com/ponte/ponte/game"
)

// SelfPlay.Run emits every game once, in order, keeps at most its window of games ahead
// of the next one to emit, and stops early when emit says so or the context ends.
func TestSelfPlayRun(t *testing.T) {
	o := bot.Options{Playouts: 1, Workers: 1, Threads: 1}
	sp := &SelfPlay{Light: "random", Dark: "random", Size: 6, Supply: game.Unlimited, Seed: 1, Games: 60, Workers: 3,
		NewBot: func(name string) (bot.Bot, error) { return bot.New(name, o) }}
	if err := sp.Check(); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		cancelAt  int // cancel the context when this game is emitted
		stopAt    int // emit returns false for this game
		wantCount int
		wantErr   bool
	}{
		{"all", 0, 0, 60, false},
		{"emit stops", 0, 17, 17, false},
		{"cancelled", 9, 0, -1, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			emitted := 0
			err := sp.Run(ctx, func(g SelfPlayGame) {
				if ahead := g.Index - (emitted + 1); ahead >= 4*sp.Workers {
					t.Errorf("game %d ended while game %d was the next to emit", g.Index, emitted+1)
				}
			}, func(g SelfPlayGame) bool {
				emitted++
				if g.Index != emitted || g.Err != nil || g.Record.Index != g.Index {
					t.Fatalf("emitted game %d (%v) as number %d", g.Index, g.Err, emitted)
				}
				if g.Index == tt.cancelAt {
					cancel()
				}
				return g.Index != tt.stopAt
			})
			if (err != nil) != tt.wantErr {
				t.Errorf("error %v", err)
			}
			if tt.wantCount >= 0 && emitted != tt.wantCount {
				t.Errorf("%d games emitted, want %d", emitted, tt.wantCount)
			}
			if tt.wantErr && (emitted < tt.cancelAt || emitted >= sp.Games) {
				t.Errorf("%d games emitted after cancelling at %d", emitted, tt.cancelAt)
			}
		})
	}
	// A context cancelled before the start plays nothing.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := sp.Run(ctx, func(SelfPlayGame) {}, func(SelfPlayGame) bool { t.Error("emitted"); return true })
	if err != context.Canceled {
		t.Errorf("error %v", err)
	}
	// A seat whose bot cannot be made is named.
	bad := *sp
	bad.Dark = "nobody"
	if err := bad.Check(); err == nil || err.Error()[:7] != "--dark:" {
		t.Errorf("Check: %v", err)
	}
}
