package verdict

import (
	"strings"
	"testing"

	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/ingest"
	"github.com/ponte/ponte/replay"
)

// The verdict of a record made into values of its own (as Check makes them, one
// allocation per batch) costs nothing more: its game id and record id are written into
// those values.
func TestAnalyzeWithoutAllocating(t *testing.T) {
	rec, err := ingest.NewReader(strings.NewReader("[GameId \"selfplay-7-1\"]\n[Size \"6\"]\n[Result \"0-1\"]\n"+
		"[Termination \"resign\"]\n\n1. a1,a2 2. f1,f2 3. b1,b2 4. e4,e5 0-1\n"), "t.ponte").Read()
	if err != nil {
		t.Fatal(err)
	}
	var g replay.Game
	var vals values
	if v, _ := analyze(rec, &g, nil, nil, &vals); !v.Legal || *v.RecordID != "selfplay-7-1" || v.GameID != GameID(rec) {
		t.Fatalf("%+v %+v", v, v.Error)
	}
	if n := testing.AllocsPerRun(100, func() { analyze(rec, &g, nil, nil, &vals) }); n != 0 {
		t.Errorf("%v allocations per verdict, want 0", n)
	}
}

// appendMove writes the move that a token holds as replay writes it, cells in board order,
// for every token ParseMove reads: every pair of cells of the largest board, as tiles and
// as a bridge, both ways round, and swap and pass.
func TestAppendMoveIsCanonical(t *testing.T) {
	var cells []string
	for col := 0; col < game.MaxSize; col++ {
		for row := 0; row < game.MaxSize; row++ {
			cells = append(cells, game.CellAt(col, row).String())
		}
	}
	texts := []string{"swap", "pass"}
	for _, a := range cells {
		for _, b := range cells {
			texts = append(texts, a+","+b, a+"-"+b)
		}
	}
	n := 0
	for _, text := range texts {
		m, err := replay.ParseMove(text, game.MaxSize)
		if err != nil {
			continue
		}
		want := m
		if (m.Kind == replay.Tiles || m.Kind == replay.Bridge) && m.B < m.A {
			want.A, want.B = m.B, m.A
		}
		if got := string(appendMove(nil, text, m)); got != want.String() {
			t.Fatalf("%s: %s, want %s", text, got, want)
		}
		n++
	}
	if n < 450000 {
		t.Errorf("only %d tokens read", n)
	}
}
