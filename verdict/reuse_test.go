package verdict_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"github.com/ponte/ponte/ingest"
	"github.com/ponte/ponte/replay"
	"github.com/ponte/ponte/verdict"
)

// A verdict holds nothing of its record: once the record is released and filled again
// with the next one, the verdict says what it said.
func TestVerdictOutlivesItsRecord(t *testing.T) {
	long := strings.Repeat("x", 60) // longer than a verdict keeps in place
	text := "[GameId \"first-game\"]\n[Size \"6\"]\n[Result \"0-1\"]\n[Termination \"agreement\"]\n\n1. a1,a2 2. f1,f2 0-1\n\n" +
		"[GameId \"" + long + "\"]\n[Size \"6\"]\n[Result \"1-0\"]\n[Termination \"resign\"]\n\n1. b1,b2 2. e1,e2 1-0\n\n" +
		"[GameId \"third-game\"]\n[Size \"6\"]\n[Result \"1/2-1/2\"]\n[Termination \"time\"]\n\n1. c1,c2 2. d1,d2 1/2-1/2\n\n" +
		"[GameId \"fourth-game\"]\n[Size \"6\"]\n[Result \"0-1\"]\n[Termination \"abandoned\"]\n\n1. c1,c2 2. d1,d2 3. } 0-1\n\n"
	rd := ingest.NewReader(strings.NewReader(text), "t.ponte")
	var g replay.Game
	var verdicts []verdict.Verdict
	var want []string
	for {
		rec, err := rd.Read()
		if err == io.EOF {
			break
		}
		var v verdict.Verdict
		if pe := (*ingest.ParseError)(nil); err != nil {
			pe = err.(*ingest.ParseError)
			v = verdict.Unreadable(rec, pe)
		} else {
			v = verdict.Of(rec, &g)
		}
		b, _ := json.Marshal(v)
		verdicts, want = append(verdicts, v), append(want, string(b))
		rec.Release()
	}
	if len(verdicts) != 4 {
		t.Fatalf("%d verdicts", len(verdicts))
	}
	for i, v := range verdicts {
		if b, _ := json.Marshal(v); string(b) != want[i] {
			t.Errorf("verdict %d changed once its record was reused:\n%s\nwas\n%s", i+1, b, want[i])
		}
	}
	if *verdicts[1].RecordID != long || *verdicts[0].RecordID != "first-game" || *verdicts[0].Termination != "agreement" {
		t.Errorf("%s", want)
	}
}

// Check reads an archive of .ponte games without allocating per game in the steady state:
// the records are released and reused, and the verdicts of a batch share one allocation.
func TestCheckAllocationsPerGame(t *testing.T) {
	const games = 20000
	game := "[GameId \"g-%d\"]\n[Light \"greedy\"]\n[Score \"0-0\"]\n[Size \"6\"]\n\n" +
		"1. a1,a2 2. f1,f2 3. b4,b5\n4. e5,e6 *\n\n"
	var text strings.Builder
	for i := range games {
		fmt.Fprintf(&text, game, i)
	}
	// The garbage collector is off while the games are counted: with it on, the count
	// depended on when its cycles fell (0.12 to 0.22 allocations a game with 2 workers in
	// about one run in four on a shared 2-core machine, 0.016 to 0.048 with it off, the
	// code the same), and what is measured here is the checker's own allocations.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	for _, workers := range []int{1, 2} {
		runtime.GC()
		rd := ingest.NewReader(strings.NewReader(text.String()), "t.ponte")
		records := func(yield func(*ingest.Record, error) bool) {
			for {
				rec, err := rd.Read()
				if err == io.EOF || !yield(rec, err) {
					return
				}
			}
		}
		// Counted once the pipeline is full (the records in flight then were new, with
		// strings of their own; from then on they are released and filled again).
		const warm = 5000
		var before, after runtime.MemStats
		n := 0
		err := verdict.Check(records, workers, func(v verdict.Verdict, err error) error {
			id, _ := strings.CutPrefix(*v.RecordID, "g-")
			if k, err := strconv.Atoi(id); !v.Legal || err != nil || k != n {
				return fmt.Errorf("game %d: %+v", n, v)
			}
			if n++; n == warm {
				runtime.ReadMemStats(&before)
			}
			return err
		})
		runtime.ReadMemStats(&after)
		if err != nil || n != games {
			t.Fatalf("%v after %d games", err, n)
		}
		// The batches of 64 verdicts cost 3 allocations each.
		per := float64(after.Mallocs-before.Mallocs) / (games - warm)
		t.Logf("%d workers: %.3f allocations per game", workers, per)
		// One allocation a game would count 1 or more. The runtime's own (a goroutine
		// parked on a channel when the machine is busy) count too: 0.016 to 0.04 alone,
		// 0.14 once under `go test ./...` on a busy 2-core machine, so the bound is 0.5.
		if per > 0.5 {
			t.Errorf("%d workers: %.2f allocations per game, want at most 0.5", workers, per)
		}
	}
}

// The id that a verdict hashes as its record is replayed is GameID's, for games of every
// length, legal or not: the self-played games of the sample data and the conformance
// corpus (illegal turns, unreadable tokens, wrong turn numbers).
func TestVerdictGameIDIsGameID(t *testing.T) {
	var g replay.Game
	n := 0
	for _, path := range []string{"../sample_data/selfplay-10x10-greedy.ponte.zst", "../sample_data/selfplay-12x12-greedy-40x15.ponte.zst",
		"../replay/testdata/conformance/random/corpus.ponte", "../replay/testdata/conformance/edge.ponte"} {
		err := ingest.Open([]string{path}, func(rec *ingest.Record, err error) error {
			if rec == nil {
				return err
			}
			var v verdict.Verdict
			if pe := (*ingest.ParseError)(nil); errors.As(err, &pe) {
				v = verdict.Unreadable(rec, pe)
			} else {
				v = verdict.Of(rec, &g)
			}
			if want := verdict.GameID(rec); v.GameID != want {
				t.Errorf("%s game %d (%d turns): verdict's id %s, GameID %s", path, rec.Index, len(rec.Moves), v.GameID, want)
			}
			n++
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if n < 900 {
		t.Errorf("only %d games", n)
	}
}
