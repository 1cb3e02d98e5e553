package store

import (
	"path/filepath"
	"strings"
	"testing"
)

// Two players whose names share their first 64 KiB (and have the same length) stay two
// players: in games, in the view tags and in games.parquet. (Before, both names were cut
// to the same 64 KiB with the same note, and every statistic by player merged them.)
func TestLongNamesKeptApart(t *testing.T) {
	dir := t.TempDir()
	common := strings.Repeat("Ada Lovelace ", 6000) // 78,000 bytes
	game := func(light, opening string) string {
		return "[Light \"" + light + "\"]\n[Dark \"Chiara\"]\n[Size \"6\"]\n[Result \"*\"]\n\n1. " + opening + " 2. f1,f2 *\n\n"
	}
	path := filepath.Join(dir, "long.ponte")
	write(t, path, game(common+"I", "a1,a2")+game(common+"II", "b1,b2")+game(common+"V", "c1,c2"))
	d := openTemp(t)
	defer d.Close()
	if sum := ingestInto(t, d, Options{}, path); sum.Games != 3 || len(sum.Errors) != 0 {
		t.Fatalf("summary %+v", sum)
	}
	got := dump(t, d.db, "SELECT substr(light, 78001), length(light), light = opener FROM games ORDER BY id")
	if want := "I | 78001 | 1\nII | 78002 | 1\nV | 78001 | 1\n"; got != want {
		t.Errorf("players:\n%s\nwant\n%s", got, want)
	}
	if n := count(t, d.db, "SELECT count(DISTINCT value) FROM tags WHERE name = 'Light'"); n != 3 {
		t.Errorf("%d distinct Light tags, want 3", n)
	}
	pq := filepath.Join(t.TempDir(), "pq")
	if _, err := d.WriteParquet(pq); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, g := range readParquet[GameRow](t, filepath.Join(pq, "games.parquet")) {
		if g.Light != nil {
			seen[*g.Light] = true
		}
	}
	if len(seen) != 3 || !seen[common+"I"] || !seen[common+"II"] || !seen[common+"V"] {
		t.Errorf("games.parquet: %d distinct players, want the 3 whole", len(seen))
	}
}
