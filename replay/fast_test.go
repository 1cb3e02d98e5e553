package replay

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
)

// randomPositions plays random games, biased as playAgainstOracle's towards crowded
// boards, bridges and groups growing next to each other, and calls visit with the game
// before every turn and the turn about to be played.
func randomPositions(t *testing.T, games int, visit func(g *Game, m Move)) {
	t.Helper()
	rng := rand.New(rand.NewPCG(5, 8))
	if testing.Short() {
		games /= 10
	}
	for gi := 0; gi < games; gi++ {
		size := MinSize + rng.IntN(10)
		supply := Unlimited
		if gi%5 == 0 {
			supply = Supply40x15
		}
		g, _ := NewGame(size, supply)
		for turn := 0; turn < 400 && !g.Over(); turn++ {
			c := g.ToMove()
			var m Move
			cells := g.LegalTileCells(c)
			switch br := g.LegalBridges(c); {
			case len(br) > 0 && rng.IntN(3) == 0:
				m = br[rng.IntN(len(br))]
			case g.Turn() == 1 && rng.IntN(2) == 0:
				m = SwapMove
			case len(cells) >= 2 && rng.IntN(20) != 0:
				a := cells[rng.IntN(len(cells))]
				b := cells[rng.IntN(len(cells))]
				if rng.IntN(2) == 0 {
					if near := CellAt(a.Col()+rng.IntN(3)-1, a.Row()+rng.IntN(3)-1); near.On(size) {
						b = near
					}
				}
				m = TilesMove(a, b)
			default:
				// Any pair of cells, legal or not, and sometimes a pass.
				m = TilesMove(CellAt(rng.IntN(size), rng.IntN(size)), CellAt(rng.IntN(size), rng.IntN(size)))
				if rng.IntN(3) == 0 {
					m = PassMove
				}
			}
			visit(g, m)
			_ = g.Play(m) // an illegal turn leaves the game as it was
		}
	}
}

// tileLegal, the test of one tile that mobility and the pass (R5.1) ask of every empty
// cell, decides as checkTiles does.
func TestTileLegalAgreesWithCheckTiles(t *testing.T) {
	cells := 0
	randomPositions(t, 600, func(g *Game, _ Move) {
		var p tilePlan
		for _, c := range [2]Colour{Light, Dark} {
			for r := 0; r < g.size; r++ {
				for col := 0; col < g.size; col++ {
					x := CellAt(col, r)
					want := g.checkTiles(c, x, NoCell, &p, false) == nil
					got := g.state[x] == 0 && !g.inHalo(c, x) && g.tileLegal(c.bit(), x)
					if got != want {
						t.Fatalf("turn %d, %s on %s: tileLegal %v, checkTiles %v", g.Turn()+1, c, x, got, want)
					}
					cells++
				}
			}
		}
	})
	t.Logf("%d cells agree", cells)
}

// The small window of crossing finds a touching bridge whenever the full window does, for
// every jump from every cell of random positions.
func TestCrossingSmallWindow(t *testing.T) {
	found := 0
	randomPositions(t, 40, func(g *Game, _ Move) {
		for r := 0; r < g.size; r++ {
			for col := 0; col < g.size; col++ {
				x := CellAt(col, r)
				for _, d := range jumps {
					y := Cell(int(x) + d)
					if !y.On(g.size) {
						continue
					}
					_, _, near := g.crossingWithin(x, y, 1)
					_, _, far := g.crossingWithin(x, y, 2)
					if near != far {
						t.Fatalf("turn %d, bridge %s-%s: within 1 cell %v, within 2 cells %v", g.Turn(), x, y, near, far)
					}
					if far {
						found++
					}
				}
			}
		}
	})
	if found < 1000 {
		t.Errorf("only %d crossings found", found)
	}
	t.Logf("%d crossings found by both windows", found)
}

// PlayTurn, which does not check again what ReadTurn checked, plays as ReadTurn then Play
// do: the same move, the same error, the same game after it, for the turns of random
// games (legal and not) and tokens that cannot be read or break R1, R5.4 or R9.
func TestPlayTurnIsReadThenPlay(t *testing.T) {
	turns := 0
	randomPositions(t, 30, func(g *Game, m Move) {
		for i, token := range []string{m.String(), "swap", "pass", "a1,a1", "a1-b9", "z9,a1", "e5", "e5-g6"} {
			number := 0
			if i == 0 && g.Turn()%7 == 3 {
				number = g.Turn() // a wrong turn number now and then (R9)
			}
			a, b := g.Clone(), g.Clone()
			got, gotErr := a.PlayTurn(number, token)
			want, wantErr := b.ReadTurn(number, token)
			if wantErr == nil {
				wantErr = b.Play(want)
			} else {
				want = Move{}
			}
			if got != want || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || !reflect.DeepEqual(a, b) {
				t.Fatalf("turn %d, %q: PlayTurn %v, %v; ReadTurn and Play %v, %v", g.Turn()+1, token, got, gotErr, want, wantErr)
			}
			turns++
		}
	})
	t.Logf("%d turns agree", turns)
}

// ParseMove's fast path reads what parseMove reads, and nothing else: the same move or
// the same error for tokens made of cells on and off the board, written well and not.
func TestParseMoveFastPath(t *testing.T) {
	var cells []string
	for _, col := range []string{"a", "b", "e", "j", "y", "z", "A", "-"} {
		for _, row := range []string{"", "0", "1", "2", "3", "5", "9", "10", "11", "01", "12", "26", "27", "99", "100", "1x"} {
			cells = append(cells, col+row)
		}
	}
	tokens := []string{"", "swap", "pass", "e5", "e5,", "e5-", ",e5", "e5,,e6", "e5,e6,", "e5 e6"}
	for _, a := range cells {
		for _, b := range cells {
			tokens = append(tokens, a+","+b, a+"-"+b, a+b)
		}
	}
	for _, size := range []int{MinSize, 9, 10, 11, 12, MaxSize} {
		for _, s := range tokens {
			m, err := ParseMove(s, size)
			want, wantErr := parseMove(s, size)
			if m != want || fmt.Sprint(err) != fmt.Sprint(wantErr) {
				t.Fatalf("size %d, %q: ParseMove %v, %v; parseMove %v, %v", size, s, m, err, want, wantErr)
			}
		}
	}
}

// islandClear, the row bitmaps that clear a new island of R3.2, decides as the loop of
// checkDistance does: the same error for every pair of neighbouring cells (and each cell
// alone) of random positions, for both colours.
func TestIslandRowsAgreeWithLoop(t *testing.T) {
	defer func() { noIslandRows = false }()
	moves, islands := 0, 0
	randomPositions(t, 12, func(g *Game, _ Move) {
		for _, c := range [2]Colour{Light, Dark} {
			for r := 0; r < g.size; r++ {
				for col := 0; col < g.size; col++ {
					x := CellAt(col, r)
					if g.state[x] != 0 {
						continue
					}
					for _, d := range append([]int{0}, eightWay[:]...) {
						y := Cell(int(x) + d)
						if d == 0 {
							y = NoCell
						} else if !y.On(g.size) || g.state[y] != 0 {
							continue
						}
						var p tilePlan
						noIslandRows = false
						fast := fmt.Sprint(g.checkTiles(c, x, y, &p, true))
						if p.g[0].size == 4 || p.n == 2 && p.g[1].size == 4 {
							islands++
						}
						noIslandRows = true
						slow := fmt.Sprint(g.checkTiles(c, x, y, &p, true))
						if fast != slow {
							t.Fatalf("turn %d, %s on %s and %s: %s; the loop says %s", g.Turn()+1, c, x, y, fast, slow)
						}
						moves++
					}
				}
			}
		}
	})
	if islands < 10000 {
		t.Errorf("only %d islands planned", islands)
	}
	t.Logf("%d turns agree, %d of them planning an island", moves, islands)
}

// jumpWater, by one lookup, gives the cells Water gives, for every jump from every cell of
// the largest board that stays on it.
func TestWaterByLookup(t *testing.T) {
	n := 0
	for col := range MaxSize {
		for row := range MaxSize {
			a := CellAt(col, row)
			for _, d := range jumps {
				b := Cell(int(a) + d)
				if !b.On(MaxSize) {
					continue
				}
				w1, w2 := jumpWater(a, b)
				if v1, v2 := Water(a, b); w1 != v1 || w2 != v2 {
					t.Fatalf("%s-%s: jumpWater %s %s, Water %s %s", a, b, w1, w2, v1, v2)
				}
				n++
			}
		}
	}
	if n < 9000 {
		t.Errorf("only %d bridges", n)
	}
}
