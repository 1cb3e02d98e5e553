package replay

import (
	"bufio"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
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

// BenchmarkFeaturesText is BenchmarkFeatures from the tokens, keeping every turn's
// features, as the ingest replays a record: "play-turn" reads and plays each token with
// FeatureTracker.PlayTurn, into the slice; "read-play" with Game.ReadTurn, then Play,
// whose result is appended (the ingest's way before PlayTurn). BenchmarkReplayText is
// their legality alone.
func BenchmarkFeaturesText(b *testing.B) {
	for _, way := range []string{"read-play", "play-turn"} {
		b.Run(way, func(b *testing.B) {
			var ft FeatureTracker
			var feats []Features
			benchCorpus(b, func(g *Game, bg *benchGame) {
				ft.Reset()
				feats = feats[:0]
				for _, tok := range bg.tokens {
					if way == "read-play" {
						m, err := g.ReadTurn(0, tok)
						if err != nil {
							b.Fatal(err)
						}
						f, err := ft.Play(g, m)
						if err != nil {
							b.Fatal(err)
						}
						feats = append(feats, f)
						continue
					}
					n := len(feats)
					feats = slices.Grow(feats, 1)[:n+1]
					if _, err := ft.PlayTurn(g, 0, tok, &feats[n]); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}

// greedyCorpus loads the self-played 10x10 games of the sample data (greedy against
// greedy, as the archives that verify is measured on), parsed once.
func greedyCorpus(tb testing.TB) ([]benchGame, int) {
	z, err := os.ReadFile("../sample_data/selfplay-10x10-greedy.ponte.zst")
	if err != nil {
		tb.Fatal(err)
	}
	d, _ := zstd.NewReader(nil)
	defer d.Close()
	text, err := d.DecodeAll(z, nil)
	if err != nil {
		tb.Fatal(err)
	}
	var games []benchGame
	turns := 0
	for _, rec := range strings.Split(string(text), "\n\n[") {
		bg := benchGame{size: 10, supply: Unlimited}
		g, _ := NewGame(10, Unlimited)
		for _, line := range strings.Split(rec, "\n") {
			if strings.HasPrefix(line, "[") || strings.HasSuffix(line, "]") {
				continue
			}
			for _, tok := range strings.Fields(line) {
				if strings.HasSuffix(tok, ".") || tok == "1-0" || tok == "0-1" || tok == "1/2-1/2" || tok == "*" {
					continue
				}
				m, err := ParseMove(tok, 10)
				if err != nil || g.Play(m) != nil {
					tb.Fatalf("%s: %v", tok, err)
				}
				bg.tokens = append(bg.tokens, tok)
				bg.moves = append(bg.moves, m)
			}
		}
		if len(bg.moves) > 0 {
			turns += len(bg.moves)
			games = append(games, bg)
		}
	}
	if len(games) != 600 {
		tb.Fatalf("%d games", len(games))
	}
	return games, turns
}

// BenchmarkReplayGreedy is BenchmarkReplay on self-played 10x10 games (greedy against
// greedy): crowded boards, many bridges, games that end with passes.
func BenchmarkReplayGreedy(b *testing.B) {
	games, turns := greedyCorpus(b)
	var g Game
	b.ResetTimer()
	for b.Loop() {
		for i := range games {
			_ = g.Reset(games[i].size, games[i].supply)
			for _, m := range games[i].moves {
				if err := g.Play(m); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	b.ReportMetric(float64(turns)*float64(b.N)/b.Elapsed().Seconds(), "turns/s")
	b.ReportMetric(float64(len(games))*float64(b.N)/b.Elapsed().Seconds(), "games/s")
}
