package pos

import "github.com/ponte/ponte/replay"

// Play plays m, which must be a legal turn (IsLegal): Play does not check it, and an
// illegal move corrupts the position or panics. A search plays only the turns that
// LegalTileCells, LegalBridges, LegalTurns or PlayoutTurn produced, or that IsLegal passed.
func (p *Position) Play(m replay.Move) {
	c := p.ToMove()
	p.grew, p.nadded = false, 0
	switch m.Kind {
	case replay.Swap:
		p.swapped = true
	case replay.Tiles:
		x, y := p.g.idx(m.A), p.g.idx(m.B)
		var pl plan
		p.makePlan(c, x, y, &pl)
		p.applyTiles(c, x, y, &pl)
		p.tilesLeft[c] -= 2
	case replay.Bridge:
		p.applyBridge(c, p.g.idx(m.A), p.g.idx(m.B))
		p.bridgesLeft--
	}
	p.afterTurn(c, m)
}

// afterTurn ends turn m of colour c: looks for a bridge worth 10 again when it may have
// appeared or gone, counts the turn and applies the pass rules.
func (p *Position) afterTurn(c replay.Colour, m replay.Move) {
	// Bridges worth 10 appear only when the colour's island components grew; a bridge
	// may have taken the last one.
	switch {
	case p.grew && !p.may10[c] && p.nadded <= len(p.added):
		p.may10[c] = p.exists10From(c, p.added[:p.nadded])
	case p.grew || m.Kind == replay.Bridge && p.may10[c]:
		p.may10[c] = p.exists10(c)
	}
	p.turn++
	switch {
	case p.lightPassed: // Dark's one more turn after Light's pass (R5.2)
		p.over = true
	case m.Kind == replay.Pass && c == replay.Dark: // R5.3
		p.over = true
	case m.Kind == replay.Pass:
		p.lightPassed = true
	}
}
