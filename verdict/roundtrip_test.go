package verdict

import (
	"bytes"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/ponte/ponte/bot"
	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/ingest"
	"github.com/ponte/ponte/replay"
)

// An illegal game keeps its id through an export and a new read, in either format: the
// game written to .ponte or JSON Lines from what was read reads back with the id and the
// legality it had (docs/verdict.md). The games are self-played ones whose .ponte text is
// mutated as a damaged archive is: a wrong turn number, a token that does not parse, the
// cells of a turn the other way round, a turn left out or played twice.
func TestIllegalGamesKeepTheirIDThroughExport(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 12))
	var src bytes.Buffer
	w := ingest.NewWriter(&src, ingest.FormatPonte)
	for i := range 300 {
		g, err := bot.Play(bot.Random{}, bot.Random{}, 8+2*(i%2), game.Unlimited, rng)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Write(g.Record(i+1, 19)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	var mutated strings.Builder
	for _, line := range strings.SplitAfter(src.String(), "\n") {
		if line == "" || line[0] == '[' || strings.TrimSpace(line) == "" {
			mutated.WriteString(line)
			continue
		}
		words := strings.Fields(line)
		for range 1 + rng.IntN(3) {
			k := rng.IntN(len(words))
			wd := words[k]
			switch rng.IntN(6) {
			case 0: // a wrong number
				if strings.HasSuffix(wd, ".") {
					words[k] = strconv.Itoa(1+rng.IntN(99)) + "."
				}
			case 1: // a token that does not parse
				words[k] = wd + "x"
			case 2: // cells the other way round, or a bridge for tiles
				if a, b, ok := strings.Cut(wd, ","); ok {
					words[k] = b + "," + a
					if rng.IntN(2) == 0 {
						words[k] = a + "-" + b
					}
				}
			case 3: // a turn left out
				words = append(words[:k], words[k+1:]...)
			case 4: // a turn played twice
				words = append(words[:k+1], words[k:]...)
			case 5: // a number written without a blank
				if strings.HasSuffix(wd, ".") && k+1 < len(words) {
					words[k+1] = wd + words[k+1]
					words = append(words[:k], words[k+1:]...)
				}
			}
			if len(words) == 0 {
				break
			}
		}
		mutated.WriteString(strings.Join(words, " ") + "\n")
	}
	recs := readRecords(t, mutated.String())
	var g replay.Game
	illegal := 0
	for _, f := range []ingest.Format{ingest.FormatPonte, ingest.FormatJSONL} {
		for i, rec := range recs {
			if rec.Raw != nil {
				continue // (an unreadable record is not written)
			}
			var out bytes.Buffer
			w := ingest.NewWriter(&out, f)
			if err := w.Write(rec); err != nil {
				t.Fatalf("game %d, %s: %v", i+1, f, err)
			}
			w.Flush()
			back := readRecords(t, out.String())
			if len(back) != 1 {
				t.Fatalf("game %d, %s: %d records", i+1, f, len(back))
			}
			v, vb := Of(rec, &g), Of(back[0], &g)
			if !v.Legal && f == ingest.FormatJSONL {
				illegal++
			}
			if GameID(rec) != GameID(back[0]) || v.Legal != vb.Legal || v.Turns != vb.Turns {
				t.Errorf("game %d, read back from %s: id %s legal %v turns %d, was %s %v %d\n%s", i+1, f,
					GameID(back[0]), vb.Legal, vb.Turns, GameID(rec), v.Legal, v.Turns, out.String())
			}
		}
	}
	if illegal < 50 {
		t.Errorf("only %d illegal games", illegal)
	}
}
