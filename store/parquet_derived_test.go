package store

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/ponte/ponte/game"
)

// derivedSample is sample data with both populations, resignations, draws and illegal
// games: people's league and club games (autumn, club), a site's JSON Lines, Abstract
// Play's export (its bots marked by is_ai), and self-play of both board sizes.
var derivedSample = []string{autumn, online, club, "../sample_data/abstractplay-export.json",
	"../sample_data/boardspace-2026-03.zip", "../sample_data/selfplay-12x12-random.jsonl.zst",
	"../sample_data/selfplay-10x10-greedy-random.jsonl.zst"}

// The derived columns of games.parquet give, in one GROUP BY, exactly the numbers of ponte
// stats for every board size and population: legal and decided games, the swap rate and
// the opener's score in each branch, and every folded opening with its games and rates.
func TestParquetDerivedMatchesStats(t *testing.T) {
	d := openTemp(t)
	defer d.Close()
	ingestInto(t, d, Options{}, derivedSample...)
	dir := filepath.Join(t.TempDir(), "pq")
	if _, err := d.WriteParquet(dir); err != nil {
		t.Fatal(err)
	}
	games := readParquet[GameRow](t, filepath.Join(dir, "games.parquet"))
	reader, err := OpenReader(d.path)
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()

	type rate struct {
		Hits float64
		N    int
	}
	type branch struct{ Swapped, Opener, OpenerSwapped, OpenerKept rate }
	type board struct {
		Games, Decided int
		Swap           branch
		Openings       map[string]branch
	}
	add := func(r *rate, hit float64) { r.Hits += hit; r.N++ }
	fromParquet := map[[2]string]*board{}
	for _, g := range games {
		if !g.Legal {
			if g.Decided || g.OpenerScore != nil || g.FinalResult != nil {
				t.Errorf("game %d is not legal, yet decided %v, score %v", g.ID, g.Decided, g.OpenerScore)
			}
			continue
		}
		k := [2]string{strconv.Itoa(int(g.Size)), g.Population}
		b := fromParquet[k]
		if b == nil {
			b = &board{Openings: map[string]branch{}}
			fromParquet[k] = b
		}
		b.Games++
		if g.Decided != (g.OpenerScore != nil) {
			t.Errorf("game %d: decided %v, opener's score %v", g.ID, g.Decided, g.OpenerScore)
		}
		if !g.Decided {
			continue
		}
		b.Decided++
		if g.Turns < 2 {
			continue
		}
		if g.Opening == nil {
			t.Fatalf("game %d: a legal game of %d turns without an opening", g.ID, g.Turns)
		}
		o := b.Openings[*g.Opening]
		for _, br := range []*branch{&b.Swap, &o} {
			sw := 0.0
			if g.Swapped {
				sw = 1
				add(&br.OpenerSwapped, *g.OpenerScore)
			} else {
				add(&br.OpenerKept, *g.OpenerScore)
			}
			add(&br.Swapped, sw)
			add(&br.Opener, *g.OpenerScore)
		}
		b.Openings[*g.Opening] = o
	}

	// What the test reads of ponte stats' report.
	type statsRate struct {
		Hits float64 `json:"hits"`
		N    int     `json:"n"`
	}
	type statsBranch struct {
		Swapped       statsRate `json:"swapped"`
		Opener        statsRate `json:"opener"`
		OpenerSwapped statsRate `json:"opener_swapped"`
		OpenerKept    statsRate `json:"opener_kept"`
	}
	type statsOpening struct {
		A, B string
		statsBranch
	}
	var r struct {
		Boards []struct {
			Size, Games, Decided int
			Swap                 statsBranch
			Openings             []statsOpening
		}
	}
	seen := 0
	for _, pop := range []string{game.PopulationPeople, game.PopulationBots} {
		b, err := ComputeStats(reader, pop)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatal(err)
		}
		for _, sb := range r.Boards {
			seen++
			conv := func(x statsRate) rate { return rate{x.Hits, x.N} }
			want := board{Games: sb.Games, Decided: sb.Decided, Openings: map[string]branch{},
				Swap: branch{conv(sb.Swap.Swapped), conv(sb.Swap.Opener), conv(sb.Swap.OpenerSwapped), conv(sb.Swap.OpenerKept)}}
			for _, o := range sb.Openings {
				want.Openings[o.A+" "+o.B] = branch{conv(o.Swapped), conv(o.Opener), conv(o.OpenerSwapped), conv(o.OpenerKept)}
			}
			got := fromParquet[[2]string{strconv.Itoa(sb.Size), pop}]
			if got == nil {
				t.Errorf("%d×%d %s: no games in games.parquet", sb.Size, sb.Size, pop)
				continue
			}
			gj, _ := json.Marshal(got)
			wj, _ := json.Marshal(want)
			if string(gj) != string(wj) {
				t.Errorf("%d×%d %s:\nParquet %s\nstats   %s", sb.Size, sb.Size, pop, gj, wj)
			}
		}
	}
	if seen < 4 || len(fromParquet) != seen {
		t.Errorf("%d boards of ponte stats, %d in games.parquet: want the same, at least 4", seen, len(fromParquet))
	}
}

// The derived columns of one game, from the columns of the games table: ponte stats'
// gameRow.final and the opener's side.
func TestDerive(t *testing.T) {
	str := func(s string) *string { return &s }
	for _, c := range []struct {
		name  string
		g     GameRow
		final string  // "" for NULL
		score float64 // -1 for NULL
	}{
		{"Light wins, no swap: the opener", GameRow{Legal: true, Over: true, Result: str("1-0")}, "1-0", 1},
		{"Light wins after a swap: the responder", GameRow{Legal: true, Over: true, Result: str("1-0"), Swapped: true}, "1-0", 0},
		{"Dark wins after a swap: the opener", GameRow{Legal: true, Over: true, Result: str("0-1"), Swapped: true}, "0-1", 1},
		{"Dark wins, no swap", GameRow{Legal: true, Over: true, Result: str("0-1")}, "0-1", 0},
		{"a draw by the rules", GameRow{Legal: true, Over: true, Result: str("1/2-1/2"), Swapped: true}, "1/2-1/2", 0.5},
		{"over: the computed result, not the claim", GameRow{Legal: true, Over: true, Result: str("0-1"), ClaimedResult: "1-0", Termination: str("resign")}, "0-1", 0},
		{"resigned", GameRow{Legal: true, ClaimedResult: "0-1", Termination: str("resign"), Swapped: true}, "0-1", 1},
		{"lost on time", GameRow{Legal: true, ClaimedResult: "1-0", Termination: str("time")}, "1-0", 1},
		{"a draw agreed", GameRow{Legal: true, ClaimedResult: "1/2-1/2", Termination: str("agreement")}, "1/2-1/2", 0.5},
		{"abandoned: not known", GameRow{Legal: true, ClaimedResult: "1-0", Termination: str("abandoned")}, "", -1},
		{"resigned, no result claimed", GameRow{Legal: true, ClaimedResult: "*", Termination: str("resign")}, "", -1},
		{"unfinished", GameRow{Legal: true, ClaimedResult: "*"}, "", -1},
		{"illegal, though over", GameRow{Over: true, Result: str("1-0")}, "", -1},
		{"illegal, resigned", GameRow{ClaimedResult: "1-0", Termination: str("resign")}, "", -1},
	} {
		var dv deriver
		g := c.g
		dv.derive(&g, false)
		final, score := "", -1.0
		if g.FinalResult != nil {
			final = *g.FinalResult
		}
		if g.OpenerScore != nil {
			score = *g.OpenerScore
		}
		if final != c.final || score != c.score || g.Decided != (c.final != "") || g.Population != game.PopulationPeople {
			t.Errorf("%s: final %q, opener's score %v, decided %v, %s; want %q, %v", c.name, final, score, g.Decided, g.Population, c.final, c.score)
		}
	}
}

// An opening is folded as ponte stats folds it, whatever the order and the symmetry its
// record wrote it in; one that cannot be read is NULL.
func TestDeriveOpening(t *testing.T) {
	str := func(s string) *string { return &s }
	var dv deriver
	for _, c := range []struct {
		size int32
		a, b string
		want string
	}{
		{10, "a1", "g5", "a1 g5"},
		{10, "g5", "a1", "a1 g5"},
		{10, "j10", "d6", "a1 g5"}, // the half turn
		{10, "e7", "a1", "a1 g5"},  // the main diagonal
		{12, "f6", "g7", "f6 g7"},
		{12, "g7", "f6", "f6 g7"},
		{12, "f7", "g6", "f6 g7"}, // a mirror
		{6, "z9", "a1", ""},
		{6, "a1", "a7", ""},
	} {
		g := GameRow{Size: c.size, OpeningA: str(c.a), OpeningB: str(c.b)}
		got := ""
		if dv.derive(&g, false); g.Opening != nil {
			o := g.Opening
			got = *o
		}
		if got != c.want {
			t.Errorf("%d×%d %s,%s: %q, want %q", c.size, c.size, c.a, c.b, got, c.want)
		}
	}
}

// date is a DATE when the Date tag is a whole date of the calendar, NULL otherwise.
func TestParseDate(t *testing.T) {
	for _, c := range []struct {
		in   string
		want string // "" when not a date
	}{
		{"2025.03.17", "2025-03-17"},
		{"2025-03-17", "2025-03-17"},
		{"2024.02.29", "2024-02-29"},
		{"1969.12.31", "1969-12-31"},
		{"1970.01.01", "1970-01-01"},
		{"2025.02.29", ""},
		{"2025.13.01", ""},
		{"2025.00.10", ""},
		{"2025.03.??", ""},
		{"????.??.??", ""},
		{"2025.03", ""},
		{"2025.03-17", ""},
		{"2025/03/17", ""},
		{"", ""},
	} {
		days, ok := parseDate(c.in)
		got := ""
		if ok {
			got = time.Unix(int64(days)*86400, 0).UTC().Format("2006-01-02")
		}
		if got != c.want {
			t.Errorf("%q: %q (%v), want %q", c.in, got, ok, c.want)
		}
	}
}

// tags.parquet holds every tag of the games table under its game's stable id, in order;
// games.parquet's date is a typed DATE and date_text the text stored.
func TestParquetTagsAndDates(t *testing.T) {
	d := openTemp(t)
	defer d.Close()
	ingestInto(t, d, Options{}, autumn, online)
	dir := filepath.Join(t.TempDir(), "pq")
	st, err := d.WriteParquet(dir)
	if err != nil {
		t.Fatal(err)
	}
	tags := readParquet[TagRow](t, filepath.Join(dir, "tags.parquet"))
	want := dump(t, d.db, "SELECT g.game_id, t.seq, t.name, t.value FROM tags t JOIN games g ON g.id = t.game ORDER BY t.game, t.seq")
	var b strings.Builder
	for _, tg := range tags {
		b.WriteString(fmtRow(tg) + "\n")
	}
	if got := b.String(); got != want || int64(len(tags)) != st.Tags || st.Tags != count(t, d.db, "SELECT count(*) FROM tags") || st.Tags == 0 {
		t.Errorf("tags.parquet (%d rows, %d said):\n%s\nwant:\n%s", len(tags), st.Tags, got, want)
	}

	games := readParquet[GameRow](t, filepath.Join(dir, "games.parquet"))
	dates := 0
	for _, g := range games {
		var text string
		if err := d.db.QueryRow("SELECT coalesce(date, '') FROM games WHERE id = ?", g.ID).Scan(&text); err != nil {
			t.Fatal(err)
		}
		gotText := ""
		if g.DateText != nil {
			gotText = *g.DateText
		}
		days, ok := parseDate(text)
		if gotText != text || ok != (g.Date != nil) || ok && *g.Date != days {
			t.Errorf("game %d: date %v, date_text %q; the games table holds %q", g.ID, g.Date, gotText, text)
		}
		if ok {
			dates++
		}
	}
	if dates == 0 {
		t.Error("no game with a date")
	}

	// The Parquet type of date is DATE.
	f, err := os.Open(filepath.Join(dir, "games.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	info, _ := f.Stat()
	pf, err := parquet.OpenFile(f, info.Size())
	if err != nil {
		t.Fatal(err)
	}
	col, ok := pf.Schema().Lookup("date")
	if !ok || col.Node.Type().LogicalType().String() != "DATE" || !col.Node.Optional() {
		t.Errorf("date has type %v, want an optional DATE", col.Node.Type())
	}
}

// A folder written by a ponte of an earlier layout (no tags.parquet, no derived columns)
// is not current: the next ingest writes it again.
func TestParquetCurrentLayout(t *testing.T) {
	d := openTemp(t)
	defer d.Close()
	ingestInto(t, d, Options{}, autumn)
	dir := t.TempDir()
	if _, err := d.WriteParquet(dir); err != nil {
		t.Fatal(err)
	}
	if ok, err := d.ParquetCurrent(dir); err != nil || !ok {
		t.Fatalf("not current right after it is written: %v", err)
	}
	os.Remove(filepath.Join(dir, "tags.parquet"))
	if ok, _ := d.ParquetCurrent(dir); ok {
		t.Error("current without tags.parquet")
	}
	var state string
	if err := d.db.QueryRow(stateSQL).Scan(&state); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(state, "; parquet 2") {
		t.Errorf("the fingerprint %q does not name the layout", state)
	}
}

// docs/parquet.md documents the columns games.parquet adds and tags.parquet from the same
// descriptions (go test ./store -update rewrites them).
func TestDocsParquet(t *testing.T) {
	const path = "../docs/parquet.md"
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for _, tb := range []*table{&gamesParquet, &tagsParquet} {
		begin := "<!-- schema " + tb.name + " -->\n"
		const end = "<!-- end schema -->"
		i := strings.Index(doc, begin)
		if i < 0 {
			t.Errorf("%s has no %q marker", path, strings.TrimSpace(begin))
			continue
		}
		i += len(begin)
		j := strings.Index(doc[i:], end)
		if j < 0 {
			t.Errorf("%s: no %q after %q", path, end, strings.TrimSpace(begin))
			continue
		}
		if want := tb.markdown(); doc[i:i+j] != want {
			if *update {
				doc = doc[:i] + want + doc[i+j:]
				continue
			}
			t.Errorf("the %s table of docs/schema.md differs (go test ./store -update rewrites it):\n%s", tb.name, want)
		}
	}
	if *update && doc != string(b) {
		if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// An ingest with --parquet-only keeps no database: its folder holds the three files and
// a marker that names none; running it again rewrites the folder; a database does not
// write into such a folder, nor does a Parquet-only ingest into a database's.
func TestParquetOnly(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "shard-1")
	run := func(paths ...string) (*Summary, *ParquetStats) {
		t.Helper()
		d, err := OpenParquetOnly(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		if d.parquetOnly != dir {
			t.Errorf("parquetOnly = %q", d.parquetOnly)
		}
		sum := ingestInto(t, d, Options{ParquetDir: dir}, paths...)
		st, err := d.WriteParquet(dir)
		if err != nil {
			t.Fatal(err)
		}
		return sum, st
	}
	names := func() string {
		entries, _ := os.ReadDir(dir)
		var out []string
		for _, e := range entries {
			out = append(out, e.Name())
		}
		return strings.Join(out, " ")
	}
	sum, st := run(autumn, online)
	if st.Games != int64(sum.New) || st.Games == 0 {
		t.Errorf("%d games written, %d stored", st.Games, sum.New)
	}
	if got, want := names(), MarkerName+" games.parquet tags.parquet turns.parquet"; got != want {
		t.Errorf("the folder holds %s, want %s (no database)", got, want)
	}
	m, err := readMarker(dir)
	if err != nil || m == nil || m.DatabaseID != ParquetOnlyID || m.Database != "" {
		t.Errorf("marker %+v (%v): want one that names no database", m, err)
	}
	// Again, with other files: the folder holds those only.
	sum, st = run(club)
	if games := readParquet[GameRow](t, filepath.Join(dir, "games.parquet")); len(games) != sum.New || st.Games != int64(sum.New) || sum.New != 17 {
		t.Errorf("rewritten: %d games read, %d written, want club's %d", len(games), st.Games, sum.New)
	}

	// A database does not write into it ...
	d := openTemp(t)
	ingestInto(t, d, Options{}, autumn)
	if _, err := d.WriteParquet(dir); !errors.Is(err, ErrParquetDir) || !strings.Contains(err.Error(), "--parquet-only") {
		t.Errorf("a database writing into a Parquet-only folder: %v", err)
	}
	// ... nor a Parquet-only ingest into a database's folder.
	dbDir := t.TempDir()
	if _, err := d.WriteParquet(dbDir); err != nil {
		t.Fatal(err)
	}
	d.Close()
	if _, err := OpenParquetOnly(dbDir); !errors.Is(err, ErrParquetDir) || !strings.Contains(err.Error(), "does not overwrite") {
		t.Errorf("a Parquet-only ingest into a database's folder: %v", err)
	}
	// Nor into a folder of other files.
	other := t.TempDir()
	os.WriteFile(filepath.Join(other, "notes.txt"), []byte("mine"), 0o644)
	if _, err := OpenParquetOnly(other); !errors.Is(err, ErrParquetDir) {
		t.Errorf("a Parquet-only ingest into a folder of other files: %v", err)
	}

	// The temporary database of a killed run is removed by the next; one in use is busy.
	if err := os.WriteFile(filepath.Join(dir, parquetOnlyDB), []byte("left by a killed run"), 0o644); err != nil {
		t.Fatal(err)
	}
	first, err := OpenParquetOnly(dir)
	if err != nil {
		t.Fatalf("a database left by a killed run: %v", err)
	}
	if _, err := OpenParquetOnly(dir); !errors.Is(err, ErrBusy) {
		t.Errorf("a second Parquet-only ingest into the folder: %v, want busy", err)
	}
	first.Close()
	if got, want := names(), MarkerName+" games.parquet tags.parquet turns.parquet"; got != want {
		t.Errorf("after close, the folder holds %s, want %s", got, want)
	}
	if _, err := os.Lstat(filepath.Join(filepath.Dir(dir), "."+filepath.Base(dir)+parquetOnlyDB)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the temporary database beside the folder is left after close: %v", err)
	}

	// A run that stores nothing in a folder it made leaves no folder.
	fresh := filepath.Join(t.TempDir(), "fresh")
	d2, err := OpenParquetOnly(fresh)
	if err != nil {
		t.Fatal(err)
	}
	if removed, err := d2.CloseDiscard(); err != nil || !removed {
		t.Errorf("CloseDiscard: %v, %v", removed, err)
	}
	if _, err := os.Stat(fresh); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the folder the run made is still there: %v", err)
	}
}

// tags.parquet names each tag's game by its stable id, read alongside the tags in chunks
// (more games than one chunk here); a tag of a game the games table does not hold (only
// an edited database has one) is an error, not a row dropped.
func TestParquetTagsOfNoGame(t *testing.T) {
	d := openTemp(t)
	defer d.Close()
	ingestInto(t, d, Options{}, "../sample_data/selfplay-10x10-greedy.ponte.zst")
	defer func(n int) { gameIDsChunk = n }(gameIDsChunk)
	gameIDsChunk = 64 // 600 games: ten chunks
	dir := filepath.Join(t.TempDir(), "pq")
	if _, err := d.WriteParquet(dir); err != nil {
		t.Fatal(err)
	}
	tags := readParquet[TagRow](t, filepath.Join(dir, "tags.parquet"))
	want := strings.Split(strings.TrimSuffix(dump(t, d.db, "SELECT g.game_id FROM tags t JOIN games g ON g.id = t.game ORDER BY t.game, t.seq"), "\n"), "\n")
	if len(tags) != len(want) {
		t.Fatalf("%d tags, want %d", len(tags), len(want))
	}
	for i, tg := range tags {
		if tg.GameID != want[i] {
			t.Fatalf("tag %d: game %s, want %s", i, tg.GameID, want[i])
		}
	}
	if _, err := d.db.Exec(`INSERT INTO game_tags (game, tags) VALUES (999999, '[["Event","nowhere"]]')`); err != nil {
		t.Fatal(err)
	}
	if _, err := d.WriteParquet(filepath.Join(t.TempDir(), "pq")); !errors.Is(err, errEditedTags) || !strings.Contains(err.Error(), "game 999999") {
		t.Errorf("a tag of no game: %v", err)
	}
}
