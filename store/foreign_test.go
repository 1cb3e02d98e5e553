package store

import (
	"testing"
)

// Records of boardspace.net and Abstract Play are stored with their format, their source,
// their players by colour and seat, their claims, and (boardspace) each turn's think time.
func TestIngestForeignFormats(t *testing.T) {
	d := openTemp(t)
	const dir = "../ingest/testdata/samples"
	sum := ingestInto(t, d, Options{}, dir+"/boardspace", dir+"/abstractplay")
	if sum.Games != 14 || sum.Legal != 13 || sum.Illegal != 1 || len(sum.Errors) != 0 || len(sum.Notices) != 1 {
		t.Fatalf("summary %+v, want 13 legal games, 1 illegal (a false result), 1 notice (a Hex game)", sum)
	}
	db := d.db
	got := dump(t, db, `SELECT format, count(*), sum(size = 10), sum(supply = '40/15') FROM games GROUP BY format ORDER BY format`)
	if want := "abstractplay | 8 | 5 | 0\nboardspace | 6 | 6 | 6\n"; got != want {
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
	if want := "abstractplay | 377 | 0 | NULL\nboardspace | 308 | 308 | 1\n"; got != want {
		t.Errorf("think times:\n%s\nwant\n%s", got, want)
	}
	// The site's claims, as expected.jsonl gives them; the site's own id is record_id.
	got = dump(t, db, `SELECT record_id, size, light, dark, opener, swapped, claimed_result, termination, claimed_score_light, claimed_score_dark, legal, error_rule
		FROM games WHERE format = 'abstractplay' ORDER BY record_id`)
	want := `pontedd#ap-0000-88d3d655 | 10 | ap774 | ap1986 | ap774 | 0 | 0-1 | normal | 2 | 5 | 1 | NULL
pontedd#ap-0001-2dea194f | 10 | ap34 | ap1120 | ap34 | 0 | 0-1 | resign | 3 | 0 | 1 | NULL
pontedd#ap-0002-376a9f8a | 10 | ap127 | ap1587 | ap127 | 0 | 1-0 | normal | 3 | 2 | 1 | NULL
pontedd#ap-0003-f9158e9a | 8 | ap662 | ap1129 | ap1129 | 1 | 1-0 | normal | 1 | 1 | 1 | NULL
pontedd#ap-0004-1b010cdc | 10 | ap668 | ap1212 | ap668 | 0 | 1-0 | normal | 1 | 1 | 1 | NULL
pontedd#ap-0005-f01d50c8 | 12 | ap439 | ap1611 | ap1611 | 1 | 0-1 | normal | 9 | 4 | 0 | R8
pontedd#ap-0006-06040b4d | 12 | ap381 | ap1352 | ap1352 | 1 | 1-0 | resign | 7 | 3 | 1 | NULL
pontedd#ap-0007-7df6671e | 10 | ap128 | ap1323 | ap128 | 0 | 1-0 | resign | 0 | 1 | 1 | NULL
`
	if got != want {
		t.Errorf("Abstract Play games:\n%s\nwant\n%s", got, want)
	}
}
