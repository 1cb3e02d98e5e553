package replay

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"
)

type benchGame struct {
	size   int
	supply Supply
	tokens []string
	moves  []Move
}

// legalCorpus loads the legal games of the conformance corpus (moves up to the first
// illegal turn), parsed once so that the benchmarks measure the engine alone.
func legalCorpus(tb testing.TB) ([]benchGame, int) {
	f, err := os.Open("testdata/conformance/random/corpus.jsonl")
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var games []benchGame
	turns := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r struct {
			Size   int
			Supply string
			Moves  []string
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			tb.Fatal(err)
		}
		sup, _ := ParseSupply(r.Supply)
		g, _ := NewGame(r.Size, sup)
		bg := benchGame{size: r.Size, supply: sup}
		for _, tok := range r.Moves {
			m, err := ParseMove(tok, r.Size)
			if err != nil || g.Play(m) != nil {
				break
			}
			bg.tokens = append(bg.tokens, tok)
			bg.moves = append(bg.moves, m)
		}
		turns += len(bg.moves)
		games = append(games, bg)
	}
	return games, turns
}

// benchCorpus replays the legal corpus b.N times with play and reports turns/s and games/s.
func benchCorpus(b *testing.B, play func(g *Game, bg *benchGame)) {
	games, turns := legalCorpus(b)
	var g Game
	b.ResetTimer()
	for b.Loop() {
		for i := range games {
			_ = g.Reset(games[i].size, games[i].supply)
			play(&g, &games[i])
		}
	}
	b.ReportMetric(float64(turns)*float64(b.N)/b.Elapsed().Seconds(), "turns/s")
	b.ReportMetric(float64(len(games))*float64(b.N)/b.Elapsed().Seconds(), "games/s")
}

// BenchmarkReplay measures legality alone: every turn of the corpus played on a reused Game.
func BenchmarkReplay(b *testing.B) {
	benchCorpus(b, func(g *Game, bg *benchGame) {
		for _, m := range bg.moves {
			if err := g.Play(m); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkReplayText adds the reading of each token (ParseMove) to BenchmarkReplay.
func BenchmarkReplayText(b *testing.B) {
	benchCorpus(b, func(g *Game, bg *benchGame) {
		for _, tok := range bg.tokens {
			if err := g.PlayText(tok); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkFeatures replays with every per-turn feature.
func BenchmarkFeatures(b *testing.B) {
	var ft FeatureTracker
	benchCorpus(b, func(g *Game, bg *benchGame) {
		ft.Reset()
		for _, m := range bg.moves {
			if _, err := ft.Play(g, m); err != nil {
				b.Fatal(err)
			}
		}
	})
}
