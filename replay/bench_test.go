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

// BenchmarkReplay measures legality alone: every turn of the corpus played on a reused Game.
func BenchmarkReplay(b *testing.B) {
	games, turns := legalCorpus(b)
	var g Game
	b.ResetTimer()
	for b.Loop() {
		for i := range games {
			bg := &games[i]
			_ = g.Reset(bg.size, bg.supply)
			for _, m := range bg.moves {
				if err := g.Play(m); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	b.ReportMetric(float64(turns)*float64(b.N)/b.Elapsed().Seconds(), "turns/s")
	b.ReportMetric(float64(len(games))*float64(b.N)/b.Elapsed().Seconds(), "games/s")
}

// BenchmarkReplayText adds the reading of each token (ParseMove) to BenchmarkReplay.
func BenchmarkReplayText(b *testing.B) {
	games, turns := legalCorpus(b)
	var g Game
	b.ResetTimer()
	for b.Loop() {
		for i := range games {
			bg := &games[i]
			_ = g.Reset(bg.size, bg.supply)
			for _, tok := range bg.tokens {
				if err := g.PlayText(tok); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	b.ReportMetric(float64(turns)*float64(b.N)/b.Elapsed().Seconds(), "turns/s")
}

// BenchmarkFeatures replays with the per-turn features (mobility and dead sandbanks).
func BenchmarkFeatures(b *testing.B) {
	games, turns := legalCorpus(b)
	var g Game
	var ft FeatureTracker
	b.ResetTimer()
	for b.Loop() {
		for i := range games {
			bg := &games[i]
			_ = g.Reset(bg.size, bg.supply)
			ft.Reset()
			for _, m := range bg.moves {
				if _, err := ft.Play(&g, m); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	b.ReportMetric(float64(turns)*float64(b.N)/b.Elapsed().Seconds(), "turns/s")
}
