package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// streamInputs are records of every kind: legal, illegal and unreadable games, a copy of
// a game met again later (its games row changes after its turns are streamed), games
// without turns, several formats, and the hostile corpus (hostile is its folder).
func streamInputs(hostile string) []string {
	return []string{autumn, online, club, "../sample_data/selfplay-12x12-random.jsonl.zst", hostile, autumn}
}

// parquetRows reads the three Parquet files of dir as lines, to compare.
func parquetRows(t *testing.T, dir string) (games, turns, tags []string) {
	t.Helper()
	for _, g := range readParquet[GameRow](t, filepath.Join(dir, "games.parquet")) {
		games = append(games, fmtRow(g))
	}
	for _, r := range readParquet[TurnRow](t, filepath.Join(dir, "turns.parquet")) {
		turns = append(turns, fmtRow(r))
	}
	for _, r := range readParquet[TagRow](t, filepath.Join(dir, "tags.parquet")) {
		tags = append(tags, fmtRow(r))
	}
	return games, turns, tags
}

// hiddenFiles lists the temporary files of the Parquet files in dir (tempName).
func hiddenFiles(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if tempName.MatchString(e.Name()) || legacyTemp(e.Name()) {
			names = append(names, e.Name())
		}
	}
	// Beside it: the staging and old folders of a switch.
	parent, base := filepath.Split(filepath.Clean(dir))
	entries, _ = os.ReadDir(parent)
	for _, e := range entries {
		if switchName(base).MatchString(e.Name()) {
			names = append(names, "../"+e.Name())
		}
	}
	return names
}

// The files an ingest streams into a new database are those exported from the database
// afterwards, row for row, and carry its state (ParquetCurrent).
func TestParquetStreamedAsExported(t *testing.T) {
	inputs := streamInputs(writeHostile(t))
	var rows [3][3][]string
	for i, how := range []string{"exported", "streamed", "parquet-only"} {
		stream := how != "exported"
		d := openTemp(t)
		dir := filepath.Join(t.TempDir(), "pq")
		if how == "parquet-only" {
			d.Close()
			var err error
			if d, err = OpenParquetOnly(dir); err != nil {
				t.Fatal(err)
			}
		}
		sum := ingestInto(t, d, Options{ParquetDir: dir, StreamParquet: stream}, inputs...)
		if sum.Duplicates == 0 || sum.Illegal == 0 {
			t.Fatalf("the inputs lack duplicates or illegal games: %+v", sum)
		}
		if got := d.stream != nil; got != stream {
			t.Fatalf("%s: streamed %v", how, got)
		}
		// A Parquet-only ingest keeps the turns and tags out of its database.
		if n := count(t, d.db, "SELECT count(*) FROM game_turns") + count(t, d.db, "SELECT count(*) FROM tags"); (n == 0) != (how == "parquet-only") {
			t.Errorf("%s: %d rows of game_turns and tags stored", how, n)
		}
		st, err := d.WriteParquet(dir)
		if err != nil {
			t.Fatal(err)
		}
		if d.stream != nil {
			t.Error("the stream is kept after WriteParquet")
		}
		if st.Turns != sum.TurnRows || st.Games != int64(sum.New) {
			t.Errorf("wrote %+v for %+v", st, sum)
		}
		if current, err := d.filesCurrent(dir); err != nil || !current {
			t.Errorf("%s: files not current (%v)", how, err)
		}
		if tmp := hiddenFiles(t, dir); len(tmp) > 0 {
			t.Errorf("temporary files left: %v", tmp)
		}
		rows[i][0], rows[i][1], rows[i][2] = parquetRows(t, dir)
		d.Close()
	}
	for k, name := range []string{"games", "turns", "tags"} {
		if len(rows[0][k]) == 0 {
			t.Errorf("%s.parquet is empty", name)
		}
		for i, how := range []string{"streamed", "parquet-only"} {
			if !slices.Equal(rows[0][k], rows[i+1][k]) {
				t.Errorf("%s.parquet %s differs from the one exported (%d and %d rows)", name, how, len(rows[i+1][k]), len(rows[0][k]))
			}
		}
	}
}

// An ingest into a database that already holds games does not stream: the files then
// hold the games of both ingests, exported from the database.
func TestParquetStreamOnlyIntoNewDatabase(t *testing.T) {
	d := openTemp(t)
	defer d.Close()
	dir := filepath.Join(t.TempDir(), "pq")
	opts := Options{ParquetDir: dir, StreamParquet: true}
	ingestInto(t, d, opts, autumn)
	if d.stream == nil {
		t.Fatal("no stream into a new database")
	}
	if _, err := d.WriteParquet(dir); err != nil {
		t.Fatal(err)
	}
	ingestInto(t, d, opts, online)
	if d.stream != nil {
		t.Fatal("streamed into a database that holds games")
	}
	st, err := d.WriteParquet(dir)
	if err != nil {
		t.Fatal(err)
	}
	if want := count(t, d.db, "SELECT count(*) FROM games"); st.Games != want {
		t.Errorf("games.parquet has %d games, the database %d", st.Games, want)
	}
	if want := count(t, d.db, "SELECT count(*) FROM turns"); st.Turns != want {
		t.Errorf("turns.parquet has %d turns, the database %d", st.Turns, want)
	}
}

// An interrupted ingest drops what it streamed: no file, no temporary file, and a folder
// it made is removed; so does a database closed before WriteParquet.
func TestParquetStreamDropped(t *testing.T) {
	t.Run("interrupted", func(t *testing.T) {
		d := openTemp(t)
		defer d.Close()
		dir := filepath.Join(t.TempDir(), "pq")
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		paths := []string{autumn, "../sample_data/selfplay-10x10-greedy-random.jsonl.zst", club, online, "../sample_data/selfplay-12x12-greedy.ponte.zst"}
		sum, err := d.Ingest(ctx, paths, Options{ParquetDir: dir, StreamParquet: true, CommitGames: 50,
			Progress: func(p Progress) {
				if p.Games >= 100 {
					cancel()
				}
			}})
		if err != nil {
			t.Fatal(err)
		}
		if !sum.Interrupted {
			t.Fatal("not interrupted")
		}
		if d.stream != nil {
			t.Error("an interrupted ingest kept its stream")
		}
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("the folder made for the stream is left: %v", err)
		}
	})
	t.Run("closed", func(t *testing.T) {
		d := openTemp(t)
		dir := filepath.Join(t.TempDir(), "pq")
		if err := os.Mkdir(dir, 0o777); err != nil {
			t.Fatal(err)
		}
		ingestInto(t, d, Options{ParquetDir: dir, StreamParquet: true}, autumn)
		if d.stream == nil {
			t.Fatal("no stream")
		}
		if tmp := hiddenFiles(t, dir); len(tmp) != 1 || !strings.Contains(tmp[0], ".ponte-stage-") {
			t.Errorf("streaming into %v, want one staging folder", tmp)
		}
		d.Close()
		if tmp := hiddenFiles(t, dir); len(tmp) > 0 {
			t.Errorf("temporary files left after Close: %v", tmp)
		}
		if _, err := os.Stat(dir); err != nil {
			t.Errorf("a folder that was there is removed: %v", err)
		}
	})
}

// A stream into another folder than the one WriteParquet writes is not used.
func TestParquetStreamOtherFolder(t *testing.T) {
	d := openTemp(t)
	defer d.Close()
	streamed := filepath.Join(t.TempDir(), "a")
	ingestInto(t, d, Options{ParquetDir: streamed, StreamParquet: true}, autumn)
	other := filepath.Join(t.TempDir(), "b")
	st, err := d.WriteParquet(other)
	if err != nil {
		t.Fatal(err)
	}
	if want := count(t, d.db, "SELECT count(*) FROM turns"); st.Turns != want || want == 0 {
		t.Errorf("turns.parquet has %d turns, the database %d", st.Turns, want)
	}
	if _, err := os.Stat(streamed); !os.IsNotExist(err) {
		t.Errorf("the stream's folder is left: %v", err)
	}
}

// A Parquet-only ingest whose stream is lost (here dropped by hand) cannot export the
// turns and tags it never stored: WriteParquet says so rather than write files without
// them.
func TestParquetOnlyStreamLost(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "pq")
	d, err := OpenParquetOnly(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	ingestInto(t, d, Options{ParquetDir: dir, StreamParquet: true}, autumn)
	d.dropStream()
	if _, err := d.WriteParquet(dir); err == nil || !strings.Contains(err.Error(), "run the ingest again") {
		t.Errorf("WriteParquet = %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "turns.parquet")); !os.IsNotExist(err) {
		t.Errorf("turns.parquet written: %v", err)
	}
}

// A stream whose file cannot be written (here its writer fails as on a full disk) stops,
// and says which file and why, not only that it stopped.
func TestParquetStreamFailureSaysWhy(t *testing.T) {
	d := openTemp(t)
	ingestInto(t, d, Options{}, autumn)
	var texts []string
	rows, err := d.db.Query("SELECT turns FROM game_turns")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var text string
		if err := rows.Scan(&text); err != nil {
			t.Fatal(err)
		}
		texts = append(texts, text)
	}
	rows.Close()
	d.Close()

	dir := filepath.Join(t.TempDir(), "pq")
	sw, err := newSwitch(dir)
	if err != nil {
		t.Fatal(err)
	}
	s, err := startParquetStream(dir, sw, false)
	if err != nil {
		t.Fatal(err)
	}
	s.turns.Fail(errors.New("no space left on device"))
	var games []streamGame
	for i := range 200 { // more than a batch of rows: the stream meets the failure
		games = append(games, streamGame{id: int64(i + 1), gameID: "g", turns: texts[i%len(texts)]})
	}
	s.in <- games
	if err := s.close(); !errors.Is(err, errStopped) {
		t.Fatalf("close = %v", err)
	}
	err = s.abort()
	if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "turns.parquet")) || !strings.Contains(err.Error(), "no space left on device") {
		t.Errorf("abort = %v", err)
	}
	if tmp := hiddenFiles(t, dir); len(tmp) > 0 {
		t.Errorf("temporary files left: %v", tmp)
	}
}
