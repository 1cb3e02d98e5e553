package pos

import (
	"math/rand/v2"
	"testing"

	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/replay"
)

// FuzzPosition reads bytes as a game: a board size and supply, then three bytes a move (its
// kind, a cell, and the other cell or a jump from the first). Both engines must give the
// move the same verdict; an illegal move is replaced by one of the legal turns, chosen by
// the same bytes, and after every turn the engines are compared as in TestDiff.
func FuzzPosition(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0x22, 0x23, 0, 0x44, 0x45, 1, 0x22, 4})
	f.Add([]byte{3, 1, 0, 0x11, 0x12, 2, 0, 0, 0, 0x33, 0x34, 1, 0x11, 9})
	f.Add([]byte{1, 0, 3, 0, 0, 0, 0x10, 0x21, 0, 0x30, 0x41, 1, 0x10, 8})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		size := game.MinSize + int(data[0])%8
		supply := game.Supply(data[1] & 1)
		g, err := replay.NewGame(size, supply)
		if err != nil {
			t.Fatal(err)
		}
		p, err := New(size, supply)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(uint64(len(data)), 1))
		for i := 2; i+2 < len(data) && !g.Over(); i += 3 {
			a := game.CellAt(int(data[i+1]&15), int(data[i+1]>>4))
			m := replay.Move{Kind: replay.MoveKind(data[i] % 5), A: a}
			switch m.Kind {
			case replay.Tiles:
				m.B = game.CellAt(int(data[i+2]&15), int(data[i+2]>>4))
			case replay.Bridge:
				d := jumpShapes[int(data[i+2])%len(jumpShapes)]
				m.B = game.CellAt(a.Col()+d[0], a.Row()+d[1])
			default:
				m.A = game.NoCell
			}
			if got, want := p.IsLegal(m), g.IsLegal(m); got != want {
				t.Fatalf("turn %d: IsLegal %s (kind %s): pos %v, replay %v", g.Turn()+1, m, m.Kind, got, want)
			}
			if !g.IsLegal(m) {
				moves := p.LegalTurns(nil)
				m = moves[int(data[i+2])%len(moves)]
			}
			if err := g.Play(m); err != nil {
				t.Fatalf("turn %d: replay rejects %s: %v", g.Turn()+1, m, err)
			}
			p.Play(m)
			compare(t, "fuzz", g, &p, rng, size <= 8)
		}
	})
}

// TestSelectBit checks the k-th set bit of a word against counting bit by bit.
func TestSelectBit(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 29))
	for range 20000 {
		v := rng.Uint64() & rng.Uint64()
		if rng.IntN(4) == 0 {
			v |= rng.Uint64()
		}
		k := 0
		for pos := range 64 {
			if v>>pos&1 == 0 {
				continue
			}
			if got := selectBit(v, k); got != pos {
				t.Fatalf("selectBit(%#x, %d) = %d, want %d", v, k, got, pos)
			}
			k++
		}
	}
}
