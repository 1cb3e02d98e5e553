package pos

import "github.com/ponte/ponte/replay"

// Play plays m, which must be a legal turn (IsLegal): Play does not check it, and an
// illegal move corrupts the position or panics. A search plays only the turns that
// LegalTileCells, LegalBridges, LegalTurns or PlayoutTurn produced, or that IsLegal passed.
func (p *Position) Play(m replay.Move) { p.play(m, false) }

// play is Play; no10 says that the mover has no legal bridge worth 10 now.
func (p *Position) play(m replay.Move, no10 bool) {
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
	p.afterTurn(c, m, no10)
}

// afterTurn ends turn m of colour c: looks for a bridge worth 10 again when it may have
// appeared or gone, counts the turn and applies the pass rules. no10 says that c had no
// legal bridge worth 10 before the turn (the draw of the turn looked for one).
func (p *Position) afterTurn(c replay.Colour, m replay.Move, no10 bool) {
	// Bridges worth 10 appear only when the colour's island components grew, and then
	// with an end among the tiles added. When there may have been one before the turn,
	// may10 stays set: the colour's next draw looks for one anyway (bestBridge), and
	// the turn after it knows.
	switch {
	case !no10 && p.may10[c]:
	case !p.grew:
		p.may10[c] = false
	case p.nadded <= len(p.added):
		p.may10[c] = p.exists10From(c, p.added[:p.nadded])
	default:
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
