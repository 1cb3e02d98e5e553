package report

import (
	"fmt"
	"html/template"
	"strings"

	gamepkg "github.com/ponte/ponte/game"
	"github.com/ponte/ponte/replay"
)

// Board geometry of the game pages, in SVG user units.
const (
	cellSize    = 36
	boardMargin = 26
	statusH     = 18 // the line under the board that names a swap or a pass
	islandInset = 2  // how far inside its cells an island's outline runs
)

// position is a game replayed up to its last legal turn, with the turn that put each piece
// on the board.
type position struct {
	size    int
	game    *replay.Game
	tileAt  map[gamepkg.Cell]int // cell -> turn its tile was placed
	bridges []placedBridge
	water   map[gamepkg.Cell]int // blocked cell -> turn of the bridge above it
	moves   []replay.Move        // the legal turns, in order
	movers  []replay.Colour      // who played each of them
	bad     *replay.Move         // the illegal turn when it could be read
}

type placedBridge struct {
	a, b   gamepkg.Cell
	colour replay.Colour
	turn   int
}

// replayGame replays the first turns tokens of g's moves (the legal prefix); it reads the
// next token as the illegal turn when the game is illegal at that turn.
func replayGame(g *game) (*position, error) {
	sup, ok := gamepkg.ParseSupply(g.Supply)
	if !ok {
		return nil, fmt.Errorf("supply %q", g.Supply)
	}
	rg, err := replay.NewGame(g.Size, sup)
	if err != nil {
		return nil, err
	}
	p := &position{size: g.Size, game: rg, tileAt: map[gamepkg.Cell]int{}, water: map[gamepkg.Cell]int{}}
	turn := 0
	for tok := range strings.FieldsSeq(g.Moves) {
		turn++
		if turn > g.Turns || turn > maxMoveRows {
			if !g.Legal && turn == g.ErrorTurn && turn <= maxMoveRows {
				if m, err := replay.ParseMove(tok, g.Size); err == nil && (m.Kind == replay.Tiles || m.Kind == replay.Bridge) {
					p.bad = &m
				}
			}
			break
		}
		colour := rg.ToMove()
		m, err := rg.ReadTurn(0, tok)
		if err != nil {
			return p, fmt.Errorf("turn %d %q: %w", turn, cutText(tok, maxToken), err)
		}
		if err := rg.Play(m); err != nil {
			return p, fmt.Errorf("turn %d %q: %w", turn, cutText(tok, maxToken), err)
		}
		p.moves = append(p.moves, m)
		p.movers = append(p.movers, colour)
		switch m.Kind {
		case replay.Tiles:
			p.tileAt[m.A], p.tileAt[m.B] = turn, turn
		case replay.Bridge:
			p.bridges = append(p.bridges, placedBridge{a: m.A, b: m.B, colour: colour, turn: turn})
			w1, w2 := replay.Water(m.A, m.B)
			for _, w := range [2]gamepkg.Cell{w1, w2} {
				if w != gamepkg.NoCell {
					if _, seen := p.water[w]; !seen {
						p.water[w] = turn
					}
				}
			}
		}
	}
	return p, nil
}

// xy returns the top-left corner of a cell in the board SVG (row 1 at the bottom).
func (p *position) xy(c gamepkg.Cell) (int, int) {
	return boardMargin + c.Col()*cellSize, boardMargin + (p.size-1-c.Row())*cellSize
}

// centre returns the centre of a cell.
func (p *position) centre(c gamepkg.Cell) (int, int) {
	x, y := p.xy(c)
	return x + cellSize/2, y + cellSize/2
}

// svg draws the position: the board with coordinates, blocked cells, tiles, island
// outlines, bridges and the illegal turn. Every piece carries data-turn, the turn that put
// it there, for the page's script. The text is made only of numbers, cell names and fixed
// words, never of a record's text.
func (p *position) svg(lastTurn int) template.HTML {
	n := p.size
	side := 2*boardMargin + n*cellSize
	height := side + statusH
	var b strings.Builder
	b.Grow(4096 + 200*len(p.tileAt))
	fmt.Fprintf(&b, `<svg id="board" class="board" viewBox="0 0 %d %d" data-turns="%d" role="img" aria-label="the position after the last turn">`, side, height, lastTurn)
	b.WriteString(`<defs><pattern id="water-hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="#b9d3de"/><line x1="0" y1="0" x2="0" y2="6" stroke="#5d8aa0" stroke-width="2"/></pattern></defs>`)
	fmt.Fprintf(&b, `<rect class="lagoon" x="%d" y="%d" width="%d" height="%d"/>`, boardMargin, boardMargin, n*cellSize, n*cellSize)
	b.WriteString(`<path class="grid" d="`)
	for i := 0; i <= n; i++ {
		v := boardMargin + i*cellSize
		fmt.Fprintf(&b, "M%d %dH%dM%d %dV%d", boardMargin, v, boardMargin+n*cellSize, v, boardMargin, boardMargin+n*cellSize)
	}
	b.WriteString(`"/>`)
	b.WriteString(`<g class="coords">`)
	for i := 0; i < n; i++ {
		x := boardMargin + i*cellSize + cellSize/2
		col := string(rune('a' + i))
		fmt.Fprintf(&b, `<text x="%d" y="%d">%s</text><text x="%d" y="%d">%s</text>`, x, boardMargin-9, col, x, boardMargin+n*cellSize+18, col)
		y := boardMargin + (n-1-i)*cellSize + cellSize/2 + 4
		fmt.Fprintf(&b, `<text x="%d" y="%d">%d</text><text x="%d" y="%d">%d</text>`, boardMargin/2, y, i+1, boardMargin+n*cellSize+boardMargin/2, y, i+1)
	}
	b.WriteString(`</g>`)

	for row := 0; row < n; row++ {
		for col := 0; col < n; col++ {
			c := gamepkg.CellAt(col, row)
			if t, ok := p.water[c]; ok {
				x, y := p.xy(c)
				fmt.Fprintf(&b, `<rect class="water" data-turn="%d" x="%d" y="%d" width="%d" height="%d"><title>%s: water under a bridge (turn %d)</title></rect>`,
					t, x+1, y+1, cellSize-2, cellSize-2, c, t)
			}
		}
	}
	for row := 0; row < n; row++ {
		for col := 0; col < n; col++ {
			c := gamepkg.CellAt(col, row)
			colour, ok := p.game.At(c)
			if !ok {
				continue
			}
			x, y := p.xy(c)
			fmt.Fprintf(&b, `<rect class="tile %s" data-turn="%d" x="%d" y="%d" width="%d" height="%d" rx="5"><title>%s: %s tile (turn %d)</title></rect>`,
				strings.ToLower(colour.String()), p.tileAt[c], x+4, y+4, cellSize-8, cellSize-8, c, colour, p.tileAt[c])
		}
	}
	groups, _ := p.game.Groups()
	for _, gr := range groups {
		if !gr.Island() {
			continue
		}
		formed := 0
		in := map[gamepkg.Cell]bool{}
		for _, c := range gr.Cells {
			formed = max(formed, p.tileAt[c])
			in[c] = true
		}
		fmt.Fprintf(&b, `<path class="island %s" data-turn="%d" d="%s"/>`, strings.ToLower(gr.Colour.String()), formed, p.outline(gr.Cells, in))
	}
	for _, br := range p.bridges {
		x1, y1 := p.centre(br.a)
		x2, y2 := p.centre(br.b)
		fmt.Fprintf(&b, `<g class="bridge %s" data-turn="%d"><title>%s bridge %s-%s (turn %d)</title><line class="under" x1="%d" y1="%d" x2="%d" y2="%d"/><line class="deck" x1="%d" y1="%d" x2="%d" y2="%d"/></g>`,
			strings.ToLower(br.colour.String()), br.turn, br.colour, br.a, br.b, br.turn, x1, y1, x2, y2, x1, y1, x2, y2)
	}
	// A turn without pieces (swap, pass) shows a note under the board while it is the
	// current turn.
	for i, m := range p.moves {
		var note string
		switch m.Kind {
		case replay.Swap:
			note = "Dark swaps (takes the Light tiles)"
		case replay.Pass:
			note = p.movers[i].String() + " passes"
		default:
			continue
		}
		fmt.Fprintf(&b, `<text class="event" data-turn="%d" x="%d" y="%d">turn %d: %s</text>`, i+1, side/2, side+statusH/2, i+1, note)
	}
	if p.bad != nil {
		fmt.Fprintf(&b, `<g class="illegal" data-turn="%d"><title>the illegal turn %d: %s</title>`, lastTurn, lastTurn, p.bad)
		if p.bad.Kind == replay.Bridge {
			x1, y1 := p.centre(p.bad.A)
			x2, y2 := p.centre(p.bad.B)
			fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d"/>`, x1, y1, x2, y2)
		}
		for _, c := range [2]gamepkg.Cell{p.bad.A, p.bad.B} {
			x, y := p.centre(c)
			fmt.Fprintf(&b, `<circle cx="%d" cy="%d" r="%d"/>`, x, y, cellSize/2-2)
		}
		b.WriteString(`</g>`)
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// outline returns the path of an island's outline: its boundary, drawn islandInset inside
// its cells, so that the outlines of two islands side by side stay apart.
func (p *position) outline(cells []gamepkg.Cell, in map[gamepkg.Cell]bool) string {
	var b strings.Builder
	has := func(col, row int) bool { return in[gamepkg.CellAt(col, row)] }
	// The four sides of a cell: the outward normal (nx, ny) and the tangent (tx, ty),
	// with rows counted upwards.
	sides := [4][4]int{{0, 1, -1, 0}, {0, -1, 1, 0}, {1, 0, 0, 1}, {-1, 0, 0, -1}}
	const half = float64(cellSize) / 2
	const d = float64(islandInset)
	for _, c := range cells {
		col, row := c.Col(), c.Row()
		cx, cy := p.centre(c)
		for _, sd := range sides {
			nx, ny, tx, ty := sd[0], sd[1], sd[2], sd[3]
			if has(col+nx, row+ny) {
				continue
			}
			s0, s1 := -half+d, half-d // convex corners
			if has(col-tx, row-ty) {
				s0 = -half
				if has(col-tx+nx, row-ty+ny) {
					s0 = -half - d // a concave corner
				}
			}
			if has(col+tx, row+ty) {
				s1 = half
				if has(col+tx+nx, row+ty+ny) {
					s1 = half + d
				}
			}
			// From cell space (y up) to SVG space (y down).
			ox, oy := float64(cx)+float64(nx)*(half-d), float64(cy)-float64(ny)*(half-d)
			fmt.Fprintf(&b, "M%g %gL%g %g", ox+float64(tx)*s0, oy-float64(ty)*s0, ox+float64(tx)*s1, oy-float64(ty)*s1)
		}
	}
	return b.String()
}
