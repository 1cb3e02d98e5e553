// Package learn holds the move priors learned from the bot's own games: small local
// features of a turn (the cell's neighbourhood, the group it joins, the hand-made cell
// value binned, a bridge's kind), their weights fitted as a conditional logit of the turn
// chosen against the legal alternatives, and the reading of a position that scores them.
// The data, the fit and the matches that judge it: docs/bot-design.md ("Learned priors").
package learn

import (
	"github.com/ponte/ponte/bot/pos"
	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/replay"
)

// gridCells is the size of replay's cell grid (stride 32, a margin of two on every side of
// the largest board): every Cell and every jump of two from a board cell indexes it.
const (
	gridCells = (game.MaxSize + 4) * 32
	stride    = 32
)

// A square's state seen from the colour to move.
const (
	stEmpty uint8 = iota
	stBlocked
	stOwn
	stOther
	stEdge
	nStates
)

// The features, by their first index. A tile cell has one of each group from fValue to
// fReach; a tile turn adds its two cells and, for cells next to each other, fPair; a
// bridge has one of fBridge and one of fShape; the pass fPass.
const (
	fValue  = 0                 // the hand-made cell value, in nValueBins bins
	fPat    = fValue + nValue   // the four neighbours' states, up to rotation and mirror
	fJoin   = fPat + maxPats    // the size of the own group the tile makes, 1 to 4
	fOpp    = fJoin + 4         // the largest group of the other colour next to it, 0 to 4
	fDiag   = fOpp + 5          // own and other tiles on its corners, 0, 1, 2+ each
	fEdge   = fDiag + 9         // distance to the edge, 0 to 4+
	fReach  = fEdge + 5         // own island cells a bridge's jump away, 0, 1, 2+
	fPair   = fReach + 3        // the turn's two cells are side by side, corner to corner
	fBridge = fPair + 2         // a bridge's value class (see bridgeClass)
	fShape  = fBridge + nBridge // straight, diagonal, knight
	fPass   = fShape + 3
	// NumFeatures is the number of weights of a Model.
	NumFeatures = fPass + 1
)

const (
	nValue  = 12
	nBridge = 6
	maxPats = 128 // the canonical neighbour patterns number fewer (see patClass)
)

// valueBins are the upper bounds of the cell value's bins; the last bin is open.
var valueBins = [nValue - 1]float64{0.1, 0.2, 0.3, 0.5, 1, 1.5, 2.5, 3, 4.5, 6, 7}

// patClass maps the four neighbours' states (east, north, west, south, base nStates) to
// its class up to the board's symmetries; nPats is their number.
var patClass, nPats = func() ([625]uint8, int) {
	var out [625]uint8
	canon := map[int]uint8{}
	code := func(s [4]int) int { return ((s[0]*5+s[1])*5+s[2])*5 + s[3] }
	for k := range 625 {
		s := [4]int{k / 125, k / 25 % 5, k / 5 % 5, k % 5}
		best := k
		for r := range 4 {
			rot := [4]int{s[r], s[(r+1)%4], s[(r+2)%4], s[(r+3)%4]}
			mir := [4]int{rot[0], rot[3], rot[2], rot[1]}
			best = min(best, code(rot), code(mir))
		}
		if _, ok := canon[best]; !ok {
			canon[best] = uint8(len(canon))
		}
		out[k] = canon[best]
	}
	return out, len(canon)
}()

// jumps are a bridge's jumps as offsets in the grid.
var jumps = func() (out [16]int) {
	k := 0
	for dy := -2; dy <= 2; dy++ {
		for dx := -2; dx <= 2; dx++ {
			if replay.ShapeOf(game.CellAt(5, 5), game.CellAt(5+dx, 5+dy)) != replay.NoShape {
				out[k] = dy*stride + dx
				k++
			}
		}
	}
	return out
}()

// Board is a position read for the features, from the side of the colour to move: each
// square's state and, on a tile, its group and the group's size. Its zero value is ready
// to Read into.
type Board struct {
	st    [gridCells]uint8
	group [gridCells]int16 // the tile's group, one id per group (valid on a tile)
	size  [gridCells]uint8 // the size of the tile's group (valid on a tile)
	reach [gridCells]uint8 // the mover's island tiles a bridge's jump away (valid on the board)
	n     int
	edged int // the size whose margins st holds as stEdge, 0 before the first Read
	// Mover is the colour the features are read for.
	Mover replay.Colour
}

// Read fills b from p for colour c: the groups are the position's own (a group is the
// tiles of one colour joined side by side, as the features count them).
func (b *Board) Read(p *pos.Position, c replay.Colour) {
	n := p.Size()
	b.n, b.Mover = n, c
	if b.edged != n { // the squares off the board stay stEdge for the next Read of this size
		for i := range b.st {
			b.st[i] = stEdge
		}
		b.edged = n
	}
	for row := range n {
		for col := range n {
			x := game.CellAt(col, row)
			k, tile, blocked, group, size := p.Square(x)
			s := stEmpty
			switch {
			case tile && k == c:
				s = stOwn
			case tile:
				s = stOther
			case blocked:
				s = stBlocked
			}
			b.st[x], b.group[x], b.size[x], b.reach[x] = s, group, uint8(size), 0
		}
	}
	// Each island tile of the mover counts for the cells a jump away (the jumps come in
	// pairs of opposites).
	for row := range n {
		for col := range n {
			if x := int(game.CellAt(col, row)); b.st[x] == stOwn && b.size[x] == 4 {
				for _, d := range jumps {
					b.reach[x+d]++
				}
			}
		}
	}
}

// CellFeatures appends the features of a tile of the mover on the empty cell x, whose
// hand-made value (pos.Position.CellValue) is value.
func (b *Board) CellFeatures(x game.Cell, value float64, dst []int16) []int16 {
	f := b.cellFeatures(x, value)
	return append(dst, f[:]...)
}

// cellFeatures returns the features of a tile of the mover on the empty cell x, whose
// hand-made value is value, in CellFeatures' order.
func (b *Board) cellFeatures(x game.Cell, value float64) (f [cellFeats]int16) {
	v := nValue - 1
	for i, hi := range valueBins {
		if value < hi {
			v = i
			break
		}
	}
	f[0] = int16(fValue + v)
	i := int(x)
	code, join, opp := 0, 1, 0
	var seen [4]int16
	nseen := 0
	for _, d := range [4]int{1, stride, -1, -stride} {
		s := b.st[i+d]
		code = code*5 + int(s)
		switch s {
		case stOwn:
			g := b.group[i+d]
			dup := false
			for _, h := range seen[:nseen] {
				dup = dup || h == g
			}
			if !dup {
				seen[nseen] = g
				nseen++
				join += int(b.size[i+d])
			}
		case stOther:
			opp = max(opp, int(b.size[i+d]))
		}
	}
	f[1], f[2], f[3] = int16(fPat+int(patClass[code])), int16(fJoin+min(join, 4)-1), int16(fOpp+min(opp, 4))
	own, other := 0, 0
	for _, d := range [4]int{stride + 1, stride - 1, -stride + 1, -stride - 1} {
		switch b.st[i+d] {
		case stOwn:
			own++
		case stOther:
			other++
		}
	}
	f[4] = int16(fDiag + 3*min(own, 2) + min(other, 2))
	col, row := x.Col(), x.Row()
	n := b.n
	edge := min(col, row, n-1-col, n-1-row)
	f[5] = int16(fEdge + min(edge, 4))
	f[6] = int16(fReach + min(int(b.reach[i]), 2))
	return f
}

// PairFeature returns the feature of a tile turn on a and b together, -1 for none.
func PairFeature(a, b game.Cell) int {
	dx, dy := a.Col()-b.Col(), a.Row()-b.Row()
	switch {
	case dx*dx+dy*dy == 1:
		return fPair
	case dx*dx == 1 && dy*dy == 1:
		return fPair + 1
	}
	return -1
}

// BridgeFeatures appends the features of a bridge m whose hand-made value
// (pos.Position.BridgeValue) is value.
func BridgeFeatures(m replay.Move, value float64, dst []int16) []int16 {
	dst = append(dst, int16(fBridge+bridgeClass(value)))
	return append(dst, int16(fShape+int(replay.ShapeOf(m.A, m.B))-1))
}

// bridgeClass returns a bridge value's class: joins what is joined (-1), joins no island
// (0.4), joins one side with islands (1.5), joins islands 1·1, 1·2, more.
func bridgeClass(value float64) int {
	switch {
	case value < 0:
		return 0
	case value < 1:
		return 1
	case value < 5:
		return 2
	case value < 15:
		return 3
	case value < 25:
		return 4
	}
	return 5
}

// PassFeature is the feature of the pass.
const PassFeature = fPass
