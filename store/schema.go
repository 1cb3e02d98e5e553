package store

import (
	"strconv"
	"strings"

	"github.com/ponte/ponte/internal/turntext"
)

// SchemaVersion is the version of the store's schema, kept in the database's user_version.
// A database of another version is refused rather than mixed, except that [Open] upgrades
// versions 1 to 6 in place (see upgrade).
const SchemaVersion = 7

// column is one column of a table: its name, its declared SQLite type, whether it may be
// NULL, and what it means (the tables of docs/schema.md are made from these).
type column struct {
	name string
	typ  string // INTEGER, TEXT, BOOLEAN (stored as 0/1) or BLOB
	null bool
	doc  string
}

// table is one table of the schema.
type table struct {
	name    string
	doc     string
	columns []column
	key     string // the PRIMARY KEY clause, "" when the first column is INTEGER PRIMARY KEY
	rowid   bool   // false: WITHOUT ROWID
	// view: not a table but a view, made by create (viewSQL for turns, tagsViewSQL for tags).
	view bool
}

// The tables and the view turns. The order of the columns is the order of the Parquet
// files' columns, of GameRow and TurnRow, and of the values the writer binds;
// schema_test.go checks that they agree. A turn is not a row of its own: a game's turns
// are one row of game_turns (one value bound instead of 27 per turn, which made the turns
// most of an ingest's time), and the view turns shows them as rows, so that SQL sees every
// per-turn feature as before.
var (
	gamesTable = table{
		name: "games",
		doc:  "one row per distinct game (the first record met of it)",
		columns: []column{
			{"id", "INTEGER", false, "the game's number in this database, from 1 in the order stored; `turns.game` and `tags.game` refer to it"},
			{"game_id", "TEXT", false, "the stable game id: 32 hex digits of a SHA-256 over size, supply and the canonical moves (unique); `game_id` of `ponte verify --json`"},
			{"source_id", "INTEGER", false, "`sources.id` of the file the game was first read from"},
			{"source", "TEXT", false, "that file's name as read (`archive.zip/entry` inside a zip, `-` for standard input)"},
			{"file_index", "INTEGER", false, "the game's place in that file, from 1"},
			{"line", "INTEGER", false, "the line where the game starts in that file"},
			{"format", "TEXT", false, "`ponte`, `jsonl`, `boardspace` (boardspace.net SGF) or `abstractplay` (Abstract Play JSON)"},
			{"event", "TEXT", true, "the `Event` tag"},
			{"site", "TEXT", true, "the `Site` tag"},
			{"date", "TEXT", true, "the `Date` tag, `YYYY.MM.DD`"},
			{"round", "TEXT", true, "the `Round` tag"},
			{"record_id", "TEXT", true, "the `GameId` tag: the archive's own name for the game; `record_id` of `ponte verify --json`"},
			{"light", "TEXT", true, "the `Light` tag: the player who played Light at the end (after any swap)"},
			{"dark", "TEXT", true, "the `Dark` tag"},
			{"opener", "TEXT", true, "the player who played turn 1: the `Dark` player if the game was swapped, else the `Light` one (so the opener played Dark at the end when `swapped`)"},
			{"swapped", "BOOLEAN", false, "turn 2 was the pie-rule `swap`"},
			{"size", "INTEGER", false, "board side N"},
			{"supply", "TEXT", false, "`unlimited` or `40/15`"},
			{"claimed_result", "TEXT", false, "the result the record claims: `1-0`, `0-1`, `1/2-1/2` or `*`"},
			{"termination", "TEXT", true, "`normal`, `resign`, `time` or `abandoned` (`normal` by default when a result is claimed)"},
			{"claimed_score_light", "INTEGER", true, "the `Score` tag's Light score"},
			{"claimed_score_dark", "INTEGER", true, "the `Score` tag's Dark score"},
			{"legal", "BOOLEAN", false, "every turn legal, every tag value read and the record's claims true (R1 … R9)"},
			{"unreadable", "BOOLEAN", false, "the record could not be read at all (a malformed tag line, movetext or JSON line, a `Size` or `Supply` that cannot be read)"},
			{"error_rule", "TEXT", true, "the first thing wrong: the broken rule (`R3.2`, `R8`, `R9`, …), else `format` for a record that cannot be read or a tag value that cannot be (after an illegal turn, before R8); NULL for a legal game"},
			{"error_turn", "INTEGER", true, "the turn of that error; NULL for R8 and `format`"},
			{"error_line", "INTEGER", true, "the line of that error in the file"},
			{"error_col", "INTEGER", true, "its column"},
			{"error_message", "TEXT", true, "its message, as `ponte verify` prints it"},
			{"tag_errors", "TEXT", true, "the tag values that could not be read (a `Date`, `Result`, `Termination` or `Score` that does not follow its form in [formats/ponte.md](formats/ponte.md#tags), a tag given twice, …): the JSON array `tag_errors` of `ponte verify --json`, objects with `rule` (`format`), `turn` (null), `line`, `col` and `message`; NULL when there are none"},
			{"turns", "INTEGER", false, "turns played legally (the rows of `turns` for this game)"},
			{"over", "BOOLEAN", false, "the game is over after those turns (R5)"},
			{"result", "TEXT", true, "the computed result when over: `1-0`, `0-1` or `1/2-1/2`; NULL while not over"},
			{"winner", "TEXT", true, "the computed winner when over, `light` or `dark`; NULL for a draw or a game not over"},
			{"tiebreak", "TEXT", true, "what decided the computed result (R7): `score`, `islands`, `bridges` or `draw`; NULL while not over"},
			{"score_light", "INTEGER", true, "Light's score (R6) after the last legal turn; NULL for an unreadable record, as are the six columns below"},
			{"score_dark", "INTEGER", true, "Dark's score"},
			{"islands_light", "INTEGER", true, "Light's islands after the last legal turn"},
			{"islands_dark", "INTEGER", true, "Dark's islands"},
			{"bridges_light", "INTEGER", true, "Light's bridges after the last legal turn"},
			{"bridges_dark", "INTEGER", true, "Dark's bridges"},
			{"margin", "INTEGER", true, "the difference of the scores, \\|score_light − score_dark\\|"},
			{"opening_a", "TEXT", true, "the first cell of the opening turn (turn 1), as written"},
			{"opening_b", "TEXT", true, "its second cell"},
			{"moves", "TEXT", false, "every move token of the record as read (without numbers, annotations, comments), separated by spaces; the numbers that are not their turn's are in `move_numbers`"},
			{"raw", "TEXT", true, "for a game that is not legal, its text: as read for an unreadable record, written back in its format otherwise; NULL for a legal game"},
			{"duplicates", "INTEGER", false, "how many more times the same game was met (in other files or twice in one)"},
			{"components_light", "TEXT", true, "Light's components after the last legal turn (islands joined by bridges: [rules.md](rules.md#terms-of-the-per-turn-features)), each that holds an island: a JSON array of their islands, largest first (`[3,1,1]`: one component of three islands and two islands alone; `[]` for none); NULL for an unreadable record"},
			{"components_dark", "TEXT", true, "the same for Dark"},
			{"move_numbers", "TEXT", true, "the turn numbers written before moves that are not their turn's, as read (an R9 error, which a JSON Lines record keeps as `\"98.f6,f9\"`): `turn:number` pairs separated by spaces, `98:97 99:98`; NULL when every number written is its turn's or none is written, and for the games stored before schema version 6 (their numbers were not kept). `ponte export` writes them back, so that the game keeps its `game_id`"},
		},
		rowid: true,
	}

	gameTurnsTable = table{
		name: "game_turns",
		doc:  "the turns of each game with turns played legally, one row per game, packed; the view `turns` unpacks them",
		columns: []column{
			{"game", "INTEGER", false, "`games.id`"},
			{"turns", "TEXT", false, "the turns played legally, packed: about 9 bytes a turn of printable ASCII, each character a digit from 0 to 94, that the view `turns` unpacks (its layout: `internal/turntext`). A header of 7 characters (the number of turns, the mobility that turn 1's changes start from), a record of 9 per turn in order (the turn's own values and its changes to the running ones: scores, islands, sandbanks, …), and, when a turn has a think time or a change too large for its record, a JSON object of those turns' values after the records"},
		},
		rowid: true,
	}

	// turnsTable is a view: the turns of game_turns unpacked, one row per turn (viewSQL).
	turnsTable = table{
		name: "turns",
		doc:  "a view of `game_turns`: one row per turn played legally (the terms of docs/rules.md); every `[light, dark]` pair is two columns",
		columns: []column{
			{"game", "INTEGER", false, "`games.id`"},
			{"turn", "INTEGER", false, "the turn number, from 1"},
			{"colour", "TEXT", false, "the mover's colour, `light` or `dark` (the swap is Dark's turn 2)"},
			{"kind", "TEXT", false, "`tiles`, `bridge`, `swap` or `pass`"},
			{"a", "TEXT", true, "the first cell of a tiles or bridge turn (`d4`); NULL for swap and pass"},
			{"b", "TEXT", true, "the second cell"},
			{"islands_formed", "INTEGER", false, "the mover's groups that reached exactly 4 tiles through this turn"},
			{"group_a", "INTEGER", true, "tiles turn: the size of the group the tile on `a` belongs to after the turn"},
			{"group_b", "INTEGER", true, "tiles turn: the same for `b` (equal to `group_a` when both joined one group)"},
			{"bridge_shape", "TEXT", true, "bridge turn: `straight`, `diagonal` or `knight`"},
			{"bridge_end_a", "INTEGER", true, "bridge turn: the size of the group at end `a` (4: an island, 1–3: a sandbank)"},
			{"bridge_end_b", "INTEGER", true, "bridge turn: the same at end `b`"},
			{"bridge_merged", "BOOLEAN", true, "bridge turn: it joined two components that were apart"},
			{"largest_component", "INTEGER", false, "the islands in the mover's largest component after the turn"},
			{"score_light", "INTEGER", false, "Light's score after the turn"},
			{"score_dark", "INTEGER", false, "Dark's score after the turn"},
			{"islands_light", "INTEGER", false, "Light's islands after the turn"},
			{"islands_dark", "INTEGER", false, "Dark's islands"},
			{"sandbanks_light", "INTEGER", false, "Light's sandbanks after the turn"},
			{"sandbanks_dark", "INTEGER", false, "Dark's sandbanks"},
			{"dead_light", "INTEGER", false, "Light's dead sandbanks (\"burned land\") after the turn"},
			{"dead_dark", "INTEGER", false, "Dark's dead sandbanks"},
			{"dead_created_light", "INTEGER", false, "Light's sandbanks that this turn made dead"},
			{"dead_created_dark", "INTEGER", false, "Dark's sandbanks that this turn made dead"},
			{"mobility_light", "INTEGER", false, "empty cells where one Light tile would be legal after the turn"},
			{"mobility_dark", "INTEGER", false, "the same for Dark"},
			{"think_ms", "INTEGER", true, "the mover's think time for the turn in milliseconds, when the record has it (boardspace.net `TM`); NULL otherwise"},
		},
		view: true,
	}

	gameTagsTable = table{
		name: "game_tags",
		doc:  "the tags of each game that has any, one row per game, packed; the view `tags` unpacks them",
		columns: []column{
			{"game", "INTEGER", false, "`games.id`"},
			{"tags", "TEXT", false, "every tag of the game in the order read, unknown ones included (JSON Lines keys under their tag names): a JSON array of `[name, value]` pairs, `[[\"Event\",\"Autumn league\"],[\"Light\",\"Ada\"]]`"},
		},
		rowid: true,
	}

	// tagsTable is a view: the tags of game_tags unpacked, one row per tag (tagsViewSQL).
	// One row per game instead of one per tag: the 13 million rows of a million games'
	// tags were a seventh of the ingest.
	tagsTable = table{
		name: "tags",
		doc:  "a view of `game_tags`: every tag of every stored game, one row each, in the order read, unknown ones included (JSON Lines keys under their tag names)",
		columns: []column{
			{"game", "INTEGER", false, "`games.id`"},
			{"seq", "INTEGER", false, "the tag's place in the record, from 1"},
			{"name", "TEXT", false, "the tag's name (`Event`, `Light`, `Opener`, …)"},
			{"value", "TEXT", false, "its value, as written"},
		},
		view: true,
	}

	sourcesTable = table{
		name: "sources",
		doc:  "one row per file ingested; a file whose content (SHA-256) is already here complete is skipped",
		columns: []column{
			{"id", "INTEGER", false, "the source's number"},
			{"path", "TEXT", false, "the path as given (or found in a directory); `-` for standard input"},
			{"size", "INTEGER", false, "its size in bytes (as stored, before decompression)"},
			{"sha256", "TEXT", true, "the SHA-256 of those bytes, hex; for standard input set when it has been read to its end"},
			{"started", "TEXT", false, "when its ingest began (UTC, RFC 3339)"},
			{"finished", "TEXT", true, "when its last record was stored; NULL while partial"},
			{"status", "TEXT", false, "`complete`; `partial` (interrupted: the next ingest of the file goes on after `records`); `failed` (the file could not be read to its end: `error` says why)"},
			{"records", "INTEGER", false, "records read from it and stored so far (games and unreadable records)"},
			{"new", "INTEGER", false, "of those, games stored in `games`"},
			{"duplicates", "INTEGER", false, "games already stored (counted in `games.duplicates`)"},
			{"legal", "INTEGER", false, "legal games among the records"},
			{"illegal", "INTEGER", false, "illegal games"},
			{"unreadable", "INTEGER", false, "unreadable records"},
			{"error", "TEXT", true, "why the file could not be read to its end (corrupt compressed data, unknown format)"},
		},
		rowid: true,
	}

	tables = []*table{&gamesTable, &gameTurnsTable, &turnsTable, &gameTagsTable, &tagsTable, &sourcesTable}
)

// metaSQL makes the table meta: what the database says of itself, one value per key. Its
// one key is "id", the database's identity ([DB.ID]), which the Parquet folder written
// from it records. It is not one of the documented tables: no query of the games needs it.
const metaSQL = "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID"

// schemaSQL is the DDL of the whole schema.
func schemaSQL() string {
	var b strings.Builder
	for _, t := range tables {
		b.WriteString(t.create())
		b.WriteString(";\n")
	}
	b.WriteString("CREATE INDEX IF NOT EXISTS sources_sha256 ON sources (sha256);\n")
	return b.String()
}

// create returns the CREATE TABLE (or CREATE VIEW) statement of t.
func (t *table) create() string {
	switch {
	case t.view && t.name == tagsTable.name:
		return tagsViewSQL
	case t.view:
		return viewSQL()
	}
	var b strings.Builder
	b.WriteString("CREATE TABLE IF NOT EXISTS ")
	b.WriteString(t.name)
	b.WriteString(" (\n")
	for i, c := range t.columns {
		b.WriteString("  ")
		b.WriteString(c.name)
		b.WriteByte(' ')
		b.WriteString(c.typ)
		switch {
		case i == 0 && t.rowid:
			b.WriteString(" PRIMARY KEY")
		case c.name == "game_id":
			b.WriteString(" NOT NULL UNIQUE")
		case !c.null:
			b.WriteString(" NOT NULL")
		}
		if i < len(t.columns)-1 || t.key != "" {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	if t.key != "" {
		b.WriteString("  ")
		b.WriteString(t.key)
		b.WriteByte('\n')
	}
	b.WriteByte(')')
	if !t.rowid {
		b.WriteString(" WITHOUT ROWID")
	}
	return b.String()
}

// names returns the column names of t, separated by commas.
func (t *table) names() string {
	var b strings.Builder
	for i, c := range t.columns {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(c.name)
	}
	return b.String()
}

// viewSQL is the CREATE VIEW statement of the view turns: every turn of game_turns, one
// row each, unpacked in plain SQL (no function of ponte's, so that any SQLite reads it) from
// the text internal/turntext writes, in three steps:
//
//   - per turn (a row of json_each over an array of as many zeros as the game has turns),
//     its record as one integer v (9 digits, each a character's code less 32, read with
//     unicode and substr of the text as a blob, which substr reaches without walking it),
//     and the mobility bases on turn 1;
//   - per game, in turn order, two window sums of the changes to the running values, each
//     packing six of them (turntext.Packed);
//   - the columns, each a field of v (v / weight % values − offset), a bit range of a sum,
//     or for a wide turn a value of its array in the JSON object after the records.
//
// The innermost step is ORDER BY game, which costs nothing (game_turns is read in that
// order) and keeps SQLite from copying v's expression into each of its uses (a query and
// its subquery both ordered are not flattened into one): ten times faster.
//
// Games come in the order of game_turns (its key), the turns of a game in order; a
// condition on game (WHERE game = ?) reaches game_turns' key through the window, which is
// by game.
func viewSQL() string {
	const text = "CAST(g.turns AS BLOB)"
	digit := func(pos string) string { return "(unicode(substr(" + text + ", " + pos + ", 1)) - 32)" }
	number := func(first, n int, off string) string {
		var parts []string
		w := int64(1)
		for i := range n {
			pos := strconv.Itoa(first + i)
			if off != "" {
				pos = off + " + " + pos
			}
			term := digit(pos)
			if w > 1 {
				term += " * " + strconv.FormatInt(w, 10)
			}
			parts = append(parts, term)
			w *= turntext.Base
		}
		return strings.Join(parts, " + ")
	}
	turns := "(" + number(1, 3, "") + ")"
	field := func(i int) string {
		f := turntext.Fields[i]
		e := "v"
		if w := turntext.Weight(i); w > 1 {
			e += " / " + strconv.FormatInt(w, 10)
		}
		if i < turntext.NumFields-1 {
			e += " % " + strconv.FormatInt(f.Values, 10)
		}
		if f.Offset != 0 {
			e += " - " + strconv.Itoa(f.Offset)
		}
		return "(" + e + ")"
	}
	// wide is value i of a wide turn's array, read from the JSON object after the records
	// with a lookup of the game's row (about one turn in fifty is wide).
	wide := func(i int) string {
		x := "CAST(x.turns AS BLOB)"
		n := strings.ReplaceAll(turns, text, x)
		return "json_extract((SELECT CAST(substr(" + x + ", " + strconv.Itoa(turntext.HeaderSize+1) + " + " + strconv.Itoa(turntext.RecordSize) +
			" * " + n + ") AS TEXT) FROM game_turns x WHERE x.game = t.game), '$.\"' || t.turn || '\"[" + strconv.Itoa(i) + "]')"
	}
	colour, kind, isWide := field(turntext.FColour), field(turntext.FKind), field(turntext.FWide)+" = 1"
	bit := func(shift int) string { return strconv.FormatInt(int64(1)<<shift, 10) }
	// mover is the factor that puts a change of the mover's at its colour's bits.
	mover := func(shift, bits int) string {
		return "CASE " + colour + " WHEN 0 THEN " + bit(shift) + " ELSE " + bit(shift+bits) + " END"
	}
	// The changes to the running values of each sum, narrow and wide.
	narrow := [2][]string{}
	wideSum := [2][]string{}
	for _, p := range turntext.Packed {
		for c := range 2 {
			wideSum[p.Int] = append(wideSum[p.Int], wide(p.Wide+c)+" * "+bit(p.Shift+c*p.Bits))
		}
		switch p.Wide {
		case turntext.WScore:
			narrow[p.Int] = append(narrow[p.Int], field(turntext.FScore)+" * "+mover(p.Shift, p.Bits))
		case turntext.WIslands:
			narrow[p.Int] = append(narrow[p.Int], field(turntext.FFormed)+" * "+mover(p.Shift, p.Bits))
		case turntext.WLargest:
			narrow[p.Int] = append(narrow[p.Int], field(turntext.FLargest)+" * "+mover(p.Shift, p.Bits))
		case turntext.WSandbanks:
			narrow[p.Int] = append(narrow[p.Int], field(turntext.FSandbanks)+" * "+mover(p.Shift, p.Bits))
		case turntext.WDead:
			narrow[p.Int] = append(narrow[p.Int], "("+field(turntext.FDeadCreatedLight)+" - "+field(turntext.FDeadGoneLight)+") * "+bit(p.Shift),
				"("+field(turntext.FDeadCreatedDark)+" - "+field(turntext.FDeadGoneDark)+") * "+bit(p.Shift+p.Bits))
		case turntext.WMobility:
			narrow[p.Int] = append(narrow[p.Int], field(turntext.FMobilityLight)+" * "+bit(p.Shift), field(turntext.FMobilityDark)+" * "+bit(p.Shift+p.Bits))
		}
	}
	mob := turntext.Packed[len(turntext.Packed)-1]
	base := "CASE WHEN j.key = 0 THEN (" + number(4, 2, "") + ") * " + bit(mob.Shift) + " + (" + number(6, 2, "") + ") * " + bit(mob.Shift+mob.Bits) + " ELSE 0 END"
	running := func(i int) string {
		return "CASE WHEN " + isWide + " THEN " + strings.Join(wideSum[i], " + ") + " ELSE " + strings.Join(narrow[i], " + ") + " END"
	}
	packed := func(w, c int) string { // the running value of wide index w of colour c
		for _, p := range turntext.Packed {
			if p.Wide == w {
				return "(s" + strconv.Itoa(p.Int) + " >> " + strconv.Itoa(p.Shift+c*p.Bits) + " & " + strconv.Itoa(1<<p.Bits-1) + ")"
			}
		}
		panic("no running value")
	}
	u := field(turntext.FShape)
	cell := func(f int) string {
		c := field(f)
		return "CASE WHEN " + kind + " < 2 THEN char(97 + " + c + " % 26) || (" + c + " / 26 + 1) END"
	}
	tiles, bridge := "CASE WHEN "+kind+" = 0 THEN ", "CASE WHEN "+kind+" = 1 THEN "
	cols := []string{
		"game", "turn",
		"CASE " + colour + " WHEN 0 THEN 'light' ELSE 'dark' END",
		"CASE " + kind + " WHEN 0 THEN 'tiles' WHEN 1 THEN 'bridge' WHEN 2 THEN 'swap' ELSE 'pass' END",
		cell(turntext.FCellA), cell(turntext.FCellB),
		field(turntext.FFormed),
		tiles + u + " / 4 + 1 END", tiles + u + " % 4 + 1 END",
		bridge + "CASE " + u + " / 32 WHEN 0 THEN 'straight' WHEN 1 THEN 'diagonal' ELSE 'knight' END END",
		bridge + u + " / 8 % 4 + 1 END", bridge + u + " / 2 % 4 + 1 END", bridge + u + " % 2 END",
		"CASE " + colour + " WHEN 0 THEN " + packed(turntext.WLargest, 0) + " ELSE " + packed(turntext.WLargest, 1) + " END",
		packed(turntext.WScore, 0), packed(turntext.WScore, 1),
		packed(turntext.WIslands, 0), packed(turntext.WIslands, 1),
		packed(turntext.WSandbanks, 0), packed(turntext.WSandbanks, 1),
		packed(turntext.WDead, 0), packed(turntext.WDead, 1),
		"CASE WHEN " + isWide + " THEN " + wide(1) + " ELSE " + field(turntext.FDeadCreatedLight) + " END",
		"CASE WHEN " + isWide + " THEN " + wide(2) + " ELSE " + field(turntext.FDeadCreatedDark) + " END",
		packed(turntext.WMobility, 0), packed(turntext.WMobility, 1),
		"CASE WHEN " + isWide + " THEN NULLIF(" + wide(0) + ", 0) END",
	}
	var b strings.Builder
	b.WriteString("CREATE VIEW IF NOT EXISTS turns AS SELECT\n")
	for i, c := range turnsTable.columns {
		b.WriteString("  " + cols[i] + " AS " + c.name)
		if i < len(turnsTable.columns)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("FROM (\n  SELECT game, turn, v,\n    sum(" + running(0) + ") OVER w AS s0,\n    sum(base + " + running(1) + ") OVER w AS s1\n")
	b.WriteString("  FROM (\n    SELECT g.game AS game, j.key + 1 AS turn,\n      " + number(turntext.HeaderSize+1, turntext.RecordSize, strconv.Itoa(turntext.RecordSize)+" * j.key") + " AS v,\n")
	b.WriteString("      " + base + " AS base\n")
	b.WriteString("    FROM game_turns g, json_each('[' || substr(replace(hex(zeroblob(" + turns + ")), '00', ',0'), 2) || ']') j\n    ORDER BY g.game\n  ) t\n")
	b.WriteString("  WINDOW w AS (PARTITION BY game ORDER BY turn ROWS UNBOUNDED PRECEDING)\n) t")
	return b.String()
}

// tagsViewSQL is the CREATE VIEW statement of the view tags: every tag of game_tags, one
// row each, in the order of the games (game_tags' key) and of each game's array; a
// condition on game (WHERE game = ?) looks the game up by key.
const tagsViewSQL = `CREATE VIEW IF NOT EXISTS tags AS SELECT
  t.game AS game,
  j.key + 1 AS seq,
  json_extract(j.value, '$[0]') AS name,
  json_extract(j.value, '$[1]') AS value
FROM game_tags t, json_each(t.tags) j`

// markdown returns the docs/schema.md table of t's columns.
func (t *table) markdown() string {
	var b strings.Builder
	b.WriteString("| column | type | meaning |\n|---|---|---|\n")
	for _, c := range t.columns {
		typ := c.typ
		if c.null {
			typ += " NULL"
		}
		b.WriteString("| `" + c.name + "` | " + typ + " | " + c.doc + " |\n")
	}
	return b.String()
}
