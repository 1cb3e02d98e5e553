package store

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// writeBotTags writes a .ponte file of games whose tags or site make a player a bot for
// botSQL, or almost do, and returns its path and how many of its games have a bot.
func writeBotTags(t *testing.T) (string, int) {
	t.Helper()
	cases := []struct {
		tags string
		bot  bool
	}{
		{`[LightIsAI "true"]`, true},
		{`[DarkIsAI "TRUE"]`, true},
		{`[DarkIsAI "True"]` + "\n" + `[LightIsAI "false"]`, true},
		{`[LightIsAI "yes"]`, false},
		{`[LightIsAI " true"]`, false},
		{`[DarkIsAI "TRUÉ"]`, false},
		{`[LightIsAi "true"]`, false},
		{`[Site "ponte selfplay"]`, true},
		{`[Site "ponte selfplay "]`, false},
		{`[Annotator "true"]`, false},
	}
	var b strings.Builder
	bots := 0
	for i, c := range cases {
		// Each game its own moves, so that none is a copy of another.
		fmt.Fprintf(&b, "[Event \"bots\"]\n[Round \"%d\"]\n[Light \"L%d\"]\n[Dark \"D%d\"]\n[Size \"10\"]\n%s\n\n1. d6,g2 2. b4,a4 3. a%d,j%d *\n\n",
			i+1, i, i, c.tags, i+1, i+1)
		if c.bot {
			bots++
		}
	}
	path := filepath.Join(t.TempDir(), "bots.ponte")
	if err := os.WriteFile(path, []byte(b.String()), 0o666); err != nil {
		t.Fatal(err)
	}
	return path, bots
}

// An ingest into a new database whose games meet no copy of themselves streams
// games.parquet as it stores them, and the file is the one exported from the database
// afterwards, row for row: records of every kind (the hostile corpus), and the bots of
// the population found from the tags as botSQL finds them.
func TestGamesStreamedAsExported(t *testing.T) {
	bots, nBots := writeBotTags(t)
	// Neither club, which holds a game twice, nor autumn, a game of which latin1.ponte holds.
	inputs := []string{online, "../sample_data/selfplay-12x12-random.jsonl.zst", bots}
	hostile := writeHostile(t)
	entries, err := os.ReadDir(hostile)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() != "caf\xe9.ponte" && e.Name() != "latin1.ponte" { // copies of games of bad-utf8.jsonl
			inputs = append(inputs, filepath.Join(hostile, e.Name()))
		}
	}
	var rows [2][]string
	var population [2]map[string]int
	for i, stream := range []bool{false, true} {
		d := openTemp(t)
		dir := filepath.Join(t.TempDir(), "pq")
		sum := ingestInto(t, d, Options{ParquetDir: dir, StreamParquet: stream}, inputs...)
		if sum.Duplicates != 0 || sum.Illegal == 0 || sum.Unreadable == 0 {
			t.Fatalf("the inputs have copies, or lack illegal or unreadable games: %+v", sum.Counts)
		}
		if streamed := d.stream != nil && d.stream.gameFile != nil && !d.stream.dupMet; streamed != stream {
			t.Fatalf("stream %v: games.parquet streamed %v", stream, streamed)
		}
		st, err := d.WriteParquet(dir)
		if err != nil {
			t.Fatal(err)
		}
		if st.Games != int64(sum.New) {
			t.Errorf("wrote %+v for %+v", st, sum)
		}
		if current, err := d.filesCurrent(dir); err != nil || !current {
			t.Errorf("stream %v: files not current (%v)", stream, err)
		}
		if tmp := hiddenFiles(t, dir); len(tmp) > 0 {
			t.Errorf("temporary files left: %v", tmp)
		}
		population[i] = map[string]int{}
		for _, g := range readParquet[GameRow](t, filepath.Join(dir, "games.parquet")) {
			rows[i] = append(rows[i], fmtRow(g))
			if g.Event != nil && *g.Event == "bots" {
				population[i][g.Population]++
			}
		}
		d.Close()
	}
	if len(rows[0]) == 0 || !slices.Equal(rows[0], rows[1]) {
		t.Errorf("games.parquet streamed (%d rows) differs from the one exported (%d rows)", len(rows[1]), len(rows[0]))
		for k := range min(len(rows[0]), len(rows[1])) {
			if rows[0][k] != rows[1][k] {
				t.Errorf("row %d:\nexported %s\nstreamed %s", k+1, rows[0][k], rows[1][k])
				break
			}
		}
	}
	for i, how := range []string{"exported", "streamed"} {
		if population[i]["bots"] != nBots || population[i]["people"] != 10-nBots {
			t.Errorf("%s: the bots file's games by population %v, want %d bots", how, population[i], nBots)
		}
	}
}

// A Parquet-only ingest, whose database keeps no tags, tells the bots of the population
// from the tags it streamed: its games.parquet has the same populations as a database's,
// also when a game met a copy of itself and the file was exported from the database.
func TestParquetOnlyBots(t *testing.T) {
	bots, nBots := writeBotTags(t)
	text, err := os.ReadFile(bots)
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(string(text), "\n\n[Event")
	copyOf := filepath.Join(t.TempDir(), "copy.ponte") // the first game, a bot's, again
	if err := os.WriteFile(copyOf, []byte(first+"\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		paths []string
	}{
		{"no copy", []string{bots}},
		{"a copy met", []string{bots, copyOf}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "shard-1")
			d, err := OpenParquetOnly(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			sum := ingestInto(t, d, Options{ParquetDir: dir}, tc.paths...)
			if copies := len(tc.paths) > 1; copies != (sum.Duplicates > 0) {
				t.Fatalf("%+v: want copies %v", sum.Counts, copies)
			}
			if _, err := d.WriteParquet(dir); err != nil {
				t.Fatal(err)
			}
			population := map[string]int{}
			for _, g := range readParquet[GameRow](t, filepath.Join(dir, "games.parquet")) {
				population[g.Population]++
			}
			if population["bots"] != nBots || population["people"] != 10-nBots {
				t.Errorf("games by population %v, want %d bots of 10", population, nBots)
			}
		})
	}
}
