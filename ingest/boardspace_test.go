package ingest

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	gamepkg "github.com/ponte/ponte/game"
	"github.com/ponte/ponte/replay"
)

// sgf builds a boardspace.net game tree: the root (lines 1-5: "(;", GM,
// GN, P0, P1), "Start" on line 6, then one node per move on line 7, 8, ...:
// "P0 Tile White_Chip_Pool E 5|1200" is P0's move with TM[1200]. The value
// of the move on line 7+i starts in column 6.
func sgf(gm string, moves ...string) string {
	var b strings.Builder
	b.WriteString("(;\nGM[" + gm + "]VV[1]\nGN[PD-alice-bob-2026-03-07-1302]\nP0[id \"alice\"]\nP1[id \"bob\"]\n; P0[0 Start P0]\n")
	for i, m := range moves {
		seat, rest, _ := strings.Cut(m, " ")
		mv, tm, hasTM := strings.Cut(rest, "|")
		fmt.Fprintf(&b, "; %s[%d %s]", seat, i+1, mv)
		if hasTM {
			fmt.Fprintf(&b, "TM[%s]", tm)
		}
		b.WriteString("\n")
	}
	b.WriteString(";\nP0[time 0:01:00 ]\nP1[time 0:01:01 ]\n)\n")
	return b.String()
}

// Turns used by several cases.
var (
	p0tiles = func(a, b string) []string {
		return []string{"P0 Tile White_Chip_Pool " + a, "P0 Tile White_Chip_Pool " + b, "P0 Done"}
	}
	p1tiles = func(a, b string) []string {
		return []string{"P1 Tile Red_Chip_Pool " + a, "P1 Tile Red_Chip_Pool " + b, "P1 Done"}
	}
	mouse = func(seat, colour, a, b string) []string {
		return []string{seat + " Pick " + colour, seat + " Dropb " + a, seat + " Pick " + colour, seat + " Dropb " + b, seat + " Done"}
	}
	// Light has e5, c4 and g4: from the anchor e5, Bridge_30 (c4) and
	// Bridge_150 (g4) are legal, the last one is the default.
	twoEnds = cat(p0tiles("E 5", "C 4"), p1tiles("A 1", "A 2"), p0tiles("G 4", "J 10"), p1tiles("H 10", "H 9"))
)

func cat(parts ...[]string) []string { return slices.Concat(parts...) }

func TestBoardspaceTurns(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		moves []string
		want  []string
		check func(t *testing.T, r *Record)
	}{
		{"robot tiles", cat(p0tiles("E 5", "F 6"), p1tiles("A 1", "A 2")), []string{"e5,f6", "a1,a2"}, nil},
		{"mouse tiles", cat(mouse("P0", "W", "E 5", "F 6"), mouse("P1", "R", "A 1", "A 2")), []string{"e5,f6", "a1,a2"}, nil},
		{"mouse undo: Pickb and Drop", []string{
			"P0 Pick W", "P0 Dropb E 5", "P0 Pickb E 5", "P0 Drop W", // taken back to the rack
			"P0 Pick W", "P0 Dropb F 6", "P0 Pick W", "P0 Dropb G 8",
			"P0 Pickb G 8", "P0 Dropb H 8", // moved
			"P0 Pick W", "P0 Drop W", // picked and put back
			"P0 Done"}, []string{"f6,h8"}, nil},
		{"Pickb of the first tile", []string{"P0 Pick W", "P0 Dropb E 5", "P0 Pick W", "P0 Dropb F 6",
			"P0 Pickb E 5", "P0 Dropb G 7", "P0 Done"}, []string{"f6,g7"}, nil},
		{"swap", cat(p0tiles("E 5", "F 6"), []string{"P1 Swap", "P1 Done"}, mouse("P0", "R", "A 1", "A 2"),
			mouse("P1", "W", "J 1", "J 2")), []string{"e5,f6", "swap", "a1,a2", "j1,j2"},
			func(t *testing.T, r *Record) {
				if r.Tag("Light") != "bob" || r.Tag("Dark") != "alice" || r.Tag("Opener") != "alice" {
					t.Errorf("players %v", r.Tags)
				}
			}},
		{"bare Done is a pass", cat(p0tiles("E 5", "F 6"), []string{"P1 Done"}, []string{"P0 Pass", "P0 Done"}),
			[]string{"e5,f6", "pass", "pass"}, nil},
		{"default orientation: the last legal offset", cat(twoEnds, []string{"P0 Pick X_30", "P0 Dropb E 5", "P0 Done"}),
			[]string{"e5,c4", "a1,a2", "g4,j10", "h10,h9", "e5-g4"}, nil},
		{"default orientation: the only legal offset",
			cat(p0tiles("E 5", "C 4"), p1tiles("A 1", "A 2"), p0tiles("J 8", "J 10"), p1tiles("H 10", "H 9"),
				[]string{"P0 Pick X_30", "P0 Dropb E 5", "P0 Done"}),
			[]string{"e5,c4", "a1,a2", "j8,j10", "h10,h9", "e5-c4"}, nil},
		{"default orientation: none legal", cat(p0tiles("E 5", "J 10"), p1tiles("A 1", "A 2"),
			[]string{"P0 Pick X_30", "P0 Dropb E 5", "P0 Done"}),
			[]string{"e5,j10", "a1,a2", "e5-c4"}, func(t *testing.T, r *Record) {
				if c := r.Moves[2].Comment; !strings.Contains(c, "no orientation") {
					t.Errorf("comment %q", c)
				}
			}},
		{"BridgeEnd", cat(twoEnds, []string{"P0 Pick X_30", "P0 Dropb E 5", "P0 BridgeEnd C 4", "P0 Done"}),
			[]string{"e5,c4", "a1,a2", "g4,j10", "h10,h9", "e5-c4"}, nil},
		{"Bridge from the table", cat(twoEnds, []string{"P0 Bridge Bridge_150 E 5", "P0 Done"}),
			[]string{"e5,c4", "a1,a2", "g4,j10", "h10,h9", "e5-g4"}, nil},
		{"bridge taken back and dropped elsewhere", cat(twoEnds, []string{"P0 Pick X_30", "P0 Dropb G 4",
			"P0 Pickb G 4", "P0 Dropb E 5", "P0 BridgeEnd C 4", "P0 Done"}),
			[]string{"e5,c4", "a1,a2", "g4,j10", "h10,h9", "e5-c4"}, nil},
		{"Edit and Start are ignored", cat([]string{"P0 Edit", "P0 Start P0"}, p0tiles("E 5", "F 6")), []string{"e5,f6"}, nil},
		{"resign", cat(p0tiles("E 5", "F 6"), []string{"P1 Resign"}), []string{"e5,f6"},
			func(t *testing.T, r *Record) {
				if r.ClaimedResult().String() != "1-0" || r.Termination.String() != "resign" {
					t.Errorf("result %s termination %s", r.ClaimedResult(), r.Termination)
				}
			}},
		{"resign after a swap", cat(p0tiles("E 5", "F 6"), []string{"P1 Swap", "P1 Done", "P0 Pick R", "P0 Resign", "P0 GameOver"}),
			[]string{"e5,f6", "swap"}, func(t *testing.T, r *Record) {
				if r.ClaimedResult().String() != "1-0" || r.Termination.String() != "resign" || r.Tag("Light") != "bob" {
					t.Errorf("result %s termination %s light %s", r.ClaimedResult(), r.Termination, r.Tag("Light"))
				}
			}},
		{"Resign confirmed by Done", cat(p0tiles("E 5", "F 6"), []string{"P1 Resign", "P1 Done", "P1 GameOver"}), []string{"e5,f6"},
			func(t *testing.T, r *Record) {
				if r.ClaimedResult().String() != "1-0" {
					t.Errorf("result %s", r.ClaimedResult())
				}
			}},
		{"a bridge anchored off this board", cat(p0tiles("K 5", "E 5"), p1tiles("A 1", "A 2"),
			[]string{"P0 Pick X_30", "P0 Dropb K 5", "P0 Done"}), []string{"k5,e5", "a1,a2", "k5-i4"}, nil},
		{"GameOver claims nothing", cat(p0tiles("E 5", "F 6"), []string{"P1 Pick R", "P1 Dropb A 1", "P1 GameOver"}),
			[]string{"e5,f6"}, func(t *testing.T, r *Record) {
				if r.ClaimedResult().String() != "*" || r.Termination.String() != "" || r.Tag("Result") != "" {
					t.Errorf("result %s termination %s", r.ClaimedResult(), r.Termination)
				}
			}},
		{"a complete turn ends when the other seat moves", []string{"P0 Tile White_Chip_Pool E 5", "P0 Tile White_Chip_Pool F 6",
			"P1 Pass", "P1 Done"}, []string{"e5,f6", "pass"}, nil},
		{"an illegal move is the replay's business", cat(p0tiles("E 5", "F 6"), p1tiles("E 5", "A 1"), p0tiles("A 3", "A 4")),
			[]string{"e5,f6", "e5,a1", "a3,a4"}, nil},
		{"off this board, but a cell", cat(p0tiles("K 5", "E 5")), []string{"k5,e5"}, nil},
		{"think times", []string{"P0 Pick W|100", "P0 Dropb E 5|900", "P0 Tile White_Chip_Pool F 6", "P0 Done|1500",
			"P1 Done|2000", "P0 Pass", "P0 Done|4000", "P1 Pass", "P1 Done"}, []string{"e5,f6", "pass", "pass", "pass"},
			func(t *testing.T, r *Record) {
				var ms []int
				for _, m := range r.Moves {
					ms = append(ms, m.Millis)
				}
				if !slices.Equal(ms, []int{1500, 2000, 2500, 0}) {
					t.Errorf("think times %v", ms)
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := readAll(t, sgf("PonteDelDiavolo", tt.moves...))
			if len(res) != 1 || res[0].err != nil {
				t.Fatalf("read %v", res)
			}
			r := res[0].rec
			if got := texts(r); !slices.Equal(got, tt.want) {
				t.Errorf("moves %v, want %v", got, tt.want)
			}
			for _, m := range r.Moves {
				if m.Col != 3 || m.Line < 7 {
					t.Errorf("%s at %d:%d", m.Text, m.Line, m.Col)
				}
			}
			if r.Format != FormatBoardspace || r.Size != 10 || r.Supply.String() != "40/15" || r.Tag("Opener") != "alice" && tt.check == nil {
				t.Errorf("record %+v", r)
			}
			if tt.check != nil {
				tt.check(t, r)
			}
		})
	}
}

func TestBoardspaceMoveErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		moves []string
		at    int // the move (0-based) the error is reported at: line 7+at, column 6
		kind  error
		msg   string
	}{
		{"Dropb without Pick", []string{"P0 Dropb E 5"}, 0, ErrMove, "Dropb without a picked piece"},
		{"three tiles", []string{"P0 Tile White_Chip_Pool E 5", "P0 Tile White_Chip_Pool F 6", "P0 Tile White_Chip_Pool G 7"}, 2, ErrMove, "third tile"},
		{"one tile", []string{"P0 Pick W", "P0 Dropb E 5", "P0 Done"}, 2, ErrMove, "one tile"},
		{"BridgeEnd not a jump", cat(twoEnds, []string{"P0 Pick X_30", "P0 Dropb E 5", "P0 BridgeEnd D 5"}), 14, ErrMove, "not a bridge's jump"},
		{"BridgeEnd without a bridge", []string{"P0 BridgeEnd D 5"}, 0, ErrMove, "without a bridge"},
		{"unknown move", []string{"P0 Jump E 5"}, 0, ErrMove, "unknown move"},
		{"unknown bridge", []string{"P0 Bridge Bridge_20 E 5"}, 0, ErrMove, "unknown bridge"},
		{"bridge off the board", []string{"P0 Bridge Bridge_30 A 5"}, 0, ErrMove, "off the board"},
		{"the wrong seat", []string{"P1 Tile Red_Chip_Pool A 1"}, 0, ErrMove, "P1 moves in turn 1, which is P0's"},
		{"the wrong colour", []string{"P0 Tile Red_Chip_Pool A 1"}, 0, ErrMove, "plays Light"},
		{"the wrong colour after a swap", cat(p0tiles("E 5", "F 6"), []string{"P1 Swap", "P1 Done", "P0 Pick W"}), 5, ErrMove, "plays Dark"},
		{"Done holding a piece", []string{"P0 Pick W", "P0 Done"}, 1, ErrMove, "not dropped"},
		{"Pick twice", []string{"P0 Pick W", "P0 Pick W"}, 1, ErrMove, "Pick while"},
		{"Pickb of nothing", []string{"P0 Pick W", "P0 Dropb E 5", "P0 Pickb F 5"}, 2, ErrMove, "no piece was dropped"},
		{"Drop of another piece", []string{"P0 Pick W", "P0 Drop X_30"}, 1, ErrMove, "not the piece picked"},
		{"the other seat moves in an unfinished turn", []string{"P0 Pick W", "P0 Dropb E 5", "P1 Done"}, 2, ErrMove, "has finished"},
		{"a move after the end", cat(p0tiles("E 5", "F 6"), []string{"P1 GameOver", "P1 Pass"}), 4, ErrMove, "after the end"},
		{"a cell that is on no board", []string{"P0 Pick W", "P0 Dropb E 27"}, 1, ErrMove, "cannot read the cell"},
		{"a bridge with no orientation on the board", cat(p0tiles("A 1", "C 1"), p1tiles("J 1", "J 2"),
			[]string{"P0 Pick X_30", "P0 Dropb A 1", "P0 Done"}), 8, ErrMove, "no orientation"},
		{"a tile and a bridge", cat(twoEnds, []string{"P0 Pick W", "P0 Dropb F 8", "P0 Bridge Bridge_30 E 5"}), 14, ErrMove, "already holds a tile"},
		{"swap after a tile", []string{"P0 Pick W", "P0 Dropb E 5", "P0 Swap"}, 2, ErrMove, "already holds"},
		{"a move without a word", []string{"P0 "}, 0, ErrMove, "without a move"},
		{"too many words", []string{"P0 Done now"}, 0, ErrMove, "takes 0 arguments"},
	}
	good := sgf("PonteDelDiavolo", p0tiles("E 5", "F 6")...)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bad := sgf("PonteDelDiavolo", tt.moves...)
			res := readAll(t, bad+good)
			if len(res) != 2 {
				t.Fatalf("read %d records", len(res))
			}
			var pe *ParseError
			if !errors.As(res[0].err, &pe) || !errors.Is(pe, tt.kind) || !strings.Contains(pe.Error(), tt.msg) {
				t.Fatalf("error %v, want %v with %q", res[0].err, tt.kind, tt.msg)
			}
			if pe.Line != 7+tt.at || pe.Column != 6 || pe.Game != 1 || pe.StartLine != 1 {
				t.Errorf("error at %d:%d game %d from %d, want %d:6 game 1 from 1", pe.Line, pe.Column, pe.Game, pe.StartLine, 7+tt.at)
			}
			if r := res[0].rec; r.Raw == nil || !strings.HasPrefix(string(r.Raw), "(;\nGM[") || r.Tag("Opener") != "alice" {
				t.Errorf("record %+v", r)
			}
			if r := res[1]; r.err != nil || r.rec.Index != 2 || !slices.Equal(texts(r.rec), []string{"e5,f6"}) ||
				r.rec.Line != strings.Count(bad, "\n")+1 {
				t.Errorf("next record %+v, %v", r.rec, r.err)
			}
		})
	}
}

func TestBoardspaceSyntaxErrors(t *testing.T) {
	t.Parallel()
	const gm = "(;GM[PonteDelDiavolo]"
	tests := []struct {
		name      string
		in        string
		line, col int
		kind      error
		msg       string
	}{
		{"value not closed", gm + "GN[abc\n\n", 1, 25, ErrSyntax, "']' missing"},
		{"tree not closed", gm + "\n;P0[1 Tile White_Chip_Pool E 5]", 1, 1, ErrSyntax, "')' missing"},
		{"stray byte", gm + " % ;P0[1 Pass])", 1, 23, ErrSyntax, "unexpected \"%\""},
		{"variation", gm + ";P0[1 Pass](;P1[2 Pass]))", 1, 33, ErrSyntax, "variation"},
		{"name without value", gm + "GN ;P0[1 Pass])", 1, 22, ErrSyntax, "without a value"},
		{"value without name", "(;[x]GM[PonteDelDiavolo])", 1, 3, ErrSyntax, "without a property name"},
		{"bad move number", gm + "\n;P0[1x Pass])", 2, 5, ErrMove, "move number"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := readAll(t, tt.in)
			if len(res) == 0 {
				t.Fatal("no record")
			}
			var pe *ParseError
			if !errors.As(res[0].err, &pe) || !errors.Is(pe, tt.kind) || !strings.Contains(pe.Error(), tt.msg) {
				t.Fatalf("error %v, want %v with %q", res[0].err, tt.kind, tt.msg)
			}
			if pe.Line != tt.line || pe.Column != tt.col {
				t.Errorf("error at %d:%d, want %d:%d", pe.Line, pe.Column, tt.line, tt.col)
			}
		})
	}
}

func TestBoardspaceEscapes(t *testing.T) {
	t.Parallel()
	in := "(;GM[PonteDelDiavolo]GN[PD-a\\]b]DT[2025.10.04\n  14:00]\n" +
		"RE[Game won by \\[x\\] \\\\ y \\\nz]TC[\xe9t\xe9]P0[id \"al]ice\"]\n" +
		";P0[1 Tile White_Chip_Pool E 5]TM[10]P0[2 Tile White_Chip_Pool F 6];P0[3 Done]TM[20])"
	in = strings.Replace(in, `"al]ice"`, `"al\]ice"`, 1)
	res := readAll(t, in)
	if len(res) != 1 || res[0].err != nil {
		t.Fatalf("%v", res)
	}
	r := res[0].rec
	for name, want := range map[string]string{"GameId": "PD-a]b", "SourceDate": "2025.10.04 14:00", "Date": "2025.10.04",
		"SourceResult": `Game won by [x] \ y z`, "TimeControl": "été", "Light": "al]ice", "SeatP0": "al]ice", "Dark": ""} {
		if got := r.Tag(name); got != want {
			t.Errorf("%s %q, want %q", name, got, want)
		}
	}
	if !slices.Equal(texts(r), []string{"e5,f6"}) || r.Moves[0].Millis != 20 || r.Moves[0].Line != 5 || r.Moves[0].Col != 2 {
		t.Errorf("moves %+v", r.Moves)
	}
}

// TestBoardspaceTrees reads several trees: the same game twice, another
// game's tree, text between trees, leading white space.
func TestBoardspaceTrees(t *testing.T) {
	t.Parallel()
	game := sgf("PonteDelDiavolo", p0tiles("E 5", "F 6")...)
	in := " \n\t\n" + game + "(;GM[Hive]GN[x];P0[1 Move wA1])" + game + "junk\n" + strings.TrimSuffix(game, "\n") + "(;GM[Ponte]) ()"
	rd := NewReader(strings.NewReader(in), "t.sgf")
	if rd.Format() != FormatBoardspace {
		t.Fatalf("format %s", rd.Format())
	}
	var got []string
	for {
		rec, err := rd.Read()
		for _, n := range rd.Notices() {
			if !errors.Is(n, ErrSkipped) || !IsNotice(n) {
				t.Errorf("notice %v", n)
			}
			got = append(got, n.Error())
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("game %d at line %d: %v", rec.Index, rec.Line, texts(rec)))
	}
	n := strings.Count(game, "\n")
	want := []string{
		"game 1 at line 3: [e5,f6]",
		fmt.Sprintf("t.sgf:%d:1: game tree of GM[Hive] skipped: not PonteDelDiavolo", n+3),
		fmt.Sprintf("game 2 at line %d: [e5,f6]", n+3),
		fmt.Sprintf("t.sgf:%d:1: text outside a game tree skipped", 2*n+3),
		fmt.Sprintf("game 3 at line %d: [e5,f6]", 2*n+4),
		fmt.Sprintf("t.sgf:%d:2: game tree of GM[Ponte] skipped: not PonteDelDiavolo", 3*n+3),
		fmt.Sprintf("t.sgf:%d:15: empty game tree skipped", 3*n+3),
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestBoardspaceOpenNotices checks that Open passes notices to its callback
// in order.
func TestBoardspaceOpenNotices(t *testing.T) {
	t.Parallel()
	game := sgf("PonteDelDiavolo", p0tiles("E 5", "F 6")...)
	in := "(;GM[Hive])\n" + game
	var got []string
	err := OpenFrom([]string{"-"}, strings.NewReader(in), func(rec *Record, err error) error {
		switch {
		case IsNotice(err):
			got = append(got, "notice: "+err.Error())
		case err != nil:
			t.Errorf("error %v", err)
		default:
			got = append(got, "game "+rec.Tag("GameId"))
		}
		return nil
	})
	want := []string{"notice: -:1:1: game tree of GM[Hive] skipped: not PonteDelDiavolo", "game PD-alice-bob-2026-03-07-1302"}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("got %q, %v", got, err)
	}
}

func TestBoardspaceNoticeLimit(t *testing.T) {
	t.Parallel()
	in := strings.Repeat("(;GM[Hive])", MaxNotices+5)
	rd := NewReader(strings.NewReader(in), "t")
	if _, err := rd.Read(); err != io.EOF {
		t.Fatal(err)
	}
	ns := rd.Notices()
	if len(ns) != MaxNotices+1 || !strings.Contains(ns[MaxNotices].Error(), "5 more notices not kept") {
		t.Errorf("%d notices, last %v", len(ns), ns[len(ns)-1])
	}
	if len(rd.Notices()) != 0 {
		t.Error("notices not forgotten")
	}
}

func TestBoardspaceDate(t *testing.T) {
	t.Parallel()
	tests := []struct{ dt, gn, want string }{
		{"Sat Mar 07 14:02:11 CET 2026", "", "2026.03.07"},
		{"Mon Dec 1 09:00:00 GMT 2025", "", "2025.12.01"},
		{"2025-10-04 12:00", "", "2025.10.04"},
		{"2025/10/04", "", "2025.10.04"},
		{"samedi 7 mars 2026", "U!PD-a-b-c-2024-01-31-0900", "2024.01.31"},
		{"Mar 32 2025", "", ""},
		{"", "PD-a-b", ""},
	}
	for _, tt := range tests {
		got, ok := bsDate(tt.dt, tt.gn)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("bsDate(%q, %q) = %q, %v; want %q", tt.dt, tt.gn, got, ok, tt.want)
		}
	}
}

// TestBoardspaceReplay checks that the records the reader makes from the
// dialect cases replay, and that an illegal move is left to the replay.
func TestBoardspaceReplay(t *testing.T) {
	t.Parallel()
	res := readAll(t, sgf("PonteDelDiavolo", cat(p0tiles("E 5", "F 6"), p1tiles("E 5", "A 1"))...))
	g, _ := replay.NewGame(10, gamepkg.Supply40x15)
	if err := g.PlayText(res[0].rec.Moves[0].Text); err != nil {
		t.Fatal(err)
	}
	var re *replay.RuleError
	if err := g.PlayText(res[0].rec.Moves[1].Text); !errors.As(err, &re) || re.Rule != replay.RuleTile {
		t.Errorf("turn 2: %v", err)
	}
}
