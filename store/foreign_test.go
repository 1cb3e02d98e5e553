package store

import (
	"testing"
)

// Records of boardspace.net and Abstract Play are stored with their format, their source,
// their players by colour and seat, and (boardspace) each turn's think time.
func TestIngestForeignFormats(t *testing.T) {
	d := openTemp(t)
	const dir = "../ingest/testdata/samples"
	sum := ingestInto(t, d, Options{}, dir+"/boardspace", dir+"/abstractplay")
	if sum.Games != 12 || sum.Legal != 12 || len(sum.Errors) != 0 || len(sum.Notices) != 0 {
		t.Fatalf("summary %+v, want 12 legal games", sum)
	}
	db := d.db
	got := dump(t, db, `SELECT format, count(*), sum(size = 10), sum(supply = '40/15') FROM games GROUP BY format ORDER BY format`)
	if want := "abstractplay | 6 | 3 | 0\nboardspace | 6 | 6 | 6\n"; got != want {
		t.Errorf("formats:\n%s\nwant\n%s", got, want)
	}
	got = dump(t, db, `SELECT light, dark, opener, swapped, site FROM games WHERE source = ?`,
		dir+"/boardspace/PD-player57-player171-000.sgf")
	if want := "player171 | player57 | player57 | 1 | boardspace.net\n"; got != want {
		t.Errorf("boardspace game: %s, want %s (P0 player57 opened, P1 swapped and played Light)", got, want)
	}
	if n := count(t, db, `SELECT count(*) FROM tags WHERE name = 'SourceResult'`); n != 6 {
		t.Errorf("%d SourceResult tags, want one per boardspace game (RE kept as text)", n)
	}
	// Every boardspace turn has a think time, no Abstract Play turn has one.
	got = dump(t, db, `SELECT g.format, count(*), count(t.think_ms), min(t.think_ms) > 0 FROM turns t JOIN games g ON g.id = t.game GROUP BY g.format ORDER BY g.format`)
	if want := "abstractplay | 253 | 0 | NULL\nboardspace | 308 | 308 | 1\n"; got != want {
		t.Errorf("think times:\n%s\nwant\n%s", got, want)
	}
}
