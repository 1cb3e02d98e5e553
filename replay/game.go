package replay

import (
	"errors"
	"fmt"
)

// Game is a game being replayed: the position, whose turn it is, the supply left, and
// whether the game is over. The zero Game is not ready; use NewGame, or Reset to reuse one
// Game for many records without allocating.
type Game struct {
	board
	supply      Supply
	turn        int // turns played
	swapped     bool
	lightPassed bool
	over        bool
	tilesLeft   [2]int
	bridgesLeft int
	plan        tilePlan
}

// ErrSize is returned for a board side outside MinSize … MaxSize.
var ErrSize = errors.New("board size must be 5 to 26")

// NewGame returns the empty position of a board of side size with the given supply.
func NewGame(size int, supply Supply) (*Game, error) {
	g := new(Game)
	if err := g.Reset(size, supply); err != nil {
		return nil, err
	}
	return g, nil
}

// Reset empties the game for a new record, keeping its memory.
func (g *Game) Reset(size int, supply Supply) error {
	if size < MinSize || size > MaxSize {
		return fmt.Errorf("%w, not %d", ErrSize, size)
	}
	g.board.reset(size)
	g.supply = supply
	g.turn = 0
	g.swapped, g.lightPassed, g.over = false, false, false
	g.tilesLeft = [2]int{TilesPerColour, TilesPerColour}
	g.bridgesLeft = BridgePool
	return nil
}

// Clone returns an independent copy of the game, for search.
func (g *Game) Clone() *Game {
	c := *g
	c.board = g.board.clone()
	return &c
}

// Size returns the board side N.
func (g *Game) Size() int { return g.size }

// Supply returns the game's supply setting.
func (g *Game) Supply() Supply { return g.supply }

// Turn returns the number of turns played so far.
func (g *Game) Turn() int { return g.turn }

// Swapped reports whether turn 2 was the pie-rule swap.
func (g *Game) Swapped() bool { return g.swapped }

// Over reports whether the game has ended (R5.2, R5.3).
func (g *Game) Over() bool { return g.over }

// ToMove returns the colour of the next turn (R1): L, D, L, D, … without a swap and
// L, swap, D, L, D, … with one (the swap itself is made by the player who was Dark).
func (g *Game) ToMove() Colour { return g.colourOf(g.turn + 1) }

func (g *Game) colourOf(turn int) Colour {
	switch {
	case turn == 1:
		return Light
	case turn == 2:
		return Dark
	case g.swapped == (turn%2 == 1):
		return Dark
	}
	return Light
}

// TilesLeft returns how many tiles colour c has left, -1 with the unlimited supply.
func (g *Game) TilesLeft(c Colour) int {
	if g.supply == Unlimited {
		return -1
	}
	return g.tilesLeft[c]
}

// BridgesLeft returns how many bridges the shared pool holds, -1 with the unlimited supply.
func (g *Game) BridgesLeft() int {
	if g.supply == Unlimited {
		return -1
	}
	return g.bridgesLeft
}

// PlayText reads a turn token (see ParseMove) and plays it. The checks follow the order of
// docs/rules.md "Which rule is reported": the end of the game (R5.4) and a misplaced swap (R1)
// come before the notation (R9), so a garbled token after the end is an R5.4 error.
func (g *Game) PlayText(token string) error { return g.PlayNumbered(0, token) }

// PlayNumbered is PlayText for a token that a record numbered: number is the turn number
// written before it, 0 when none was. A number that is not the turn's is a notation error
// (R9), reported after R5.4 and R1, like an unreadable token.
func (g *Game) PlayNumbered(number int, token string) error {
	_, err := g.PlayTurn(number, token)
	return err
}

// ReadTurn reads the token of the next turn without playing it, with the checks that come
// before the notation: the end of the game (R5.4), a misplaced swap (R1), a wrong turn
// number (R9, number 0 meaning none was written), then the token itself (R9).
func (g *Game) ReadTurn(number int, token string) (Move, error) {
	turn := g.turn + 1
	if err := g.preCheck(turn, token == "swap"); err != nil {
		return Move{}, err
	}
	if number != 0 && number != turn {
		msg := fmt.Sprintf("turn number %d written before turn %d (%s)", number, turn, token)
		if number == (turn+1)/2 {
			// 1. e5,f5 d4,d3 2. …: two turns under one number, as chess writes a move of
			// each side.
			msg += fmt.Sprintf(": one number per turn (1. e5,f5 2. d4,d3), not one per pair of turns as in chess; this is turn %d", turn)
		}
		return Move{}, &RuleError{Rule: RuleNotation, Turn: turn, Message: msg}
	}
	m, err := ParseMove(token, g.size)
	if err != nil {
		re := err.(*RuleError)
		re.Turn = turn
		return Move{}, re
	}
	return m, nil
}

// PlayTurn reads the token of the next turn and plays it, as ReadTurn then Play do, and
// returns the move it read: the zero Move when the token could not be read (the error is
// ReadTurn's), else the move, with Play's error when it is illegal. What ReadTurn checked
// (the end of the game, a misplaced swap, the cells of the token) is not checked again.
func (g *Game) PlayTurn(number int, token string) (Move, error) {
	m, err := g.readTurn(number, token)
	if err != nil {
		return Move{}, err
	}
	if err := g.play(m, true, true); err != nil {
		return m, err
	}
	return m, nil
}

// readTurn is ReadTurn, with a short way for the usual turn: two cells of the board pass
// ReadTurn's checks, so it is not called for them.
func (g *Game) readTurn(number int, token string) (Move, error) {
	if !g.over && (number == 0 || number == g.turn+1) {
		if m, ok := parseOnBoard(token, g.size); ok {
			return m, nil
		}
	}
	return g.ReadTurn(number, token)
}

func (g *Game) preCheck(turn int, swap bool) *RuleError {
	if g.over {
		return &RuleError{Rule: RuleOver, Turn: turn, Message: fmt.Sprintf("the game is over: it ended with turn %d", g.turn)}
	}
	if swap && turn != 2 {
		return &RuleError{Rule: RuleSwap, Turn: turn, Message: fmt.Sprintf("swap is legal only as turn 2, not as turn %d", turn)}
	}
	return nil
}

// Play plays one turn for the colour to move, or returns a *RuleError naming the first rule
// the turn breaks and leaves the game unchanged.
func (g *Game) Play(m Move) error {
	if err := g.play(m, true, false); err != nil {
		return err
	}
	return nil
}

// Legal reports whether m is a legal next turn, with the *RuleError it would get if not.
func (g *Game) Legal(m Move) error {
	if err := g.check(m, true, false); err != nil {
		return err
	}
	return nil
}

// IsLegal reports whether m is a legal next turn, without building an explanation: the
// test for bots and searches, which try many turns. It allocates nothing.
func (g *Game) IsLegal(m Move) bool { return g.check(m, false, false) == nil }

// check decides a turn without playing it; the tile plan is left in g.plan. A move read
// (by ReadTurn, for this turn) has passed preCheck and has its cells on the board, distinct,
// and a jump apart for a bridge: those checks are not made again.
func (g *Game) check(m Move, explain, read bool) *RuleError {
	turn := g.turn + 1
	if !read {
		if err := g.preCheck(turn, m.Kind == Swap); err != nil {
			return err
		}
	}
	err := g.checkMove(m, explain, read)
	if err != nil && err != errIllegal {
		err.Turn = turn
	}
	return err
}

func (g *Game) checkMove(m Move, explain, read bool) *RuleError {
	c := g.ToMove()
	switch m.Kind {
	case Swap:
		return nil
	case Pass:
		if g.supply == Supply40x15 && g.tilesLeft[c] < 2 {
			return nil
		}
		if g.canPlaceTwo(c) {
			if !explain {
				return errIllegal
			}
			return &RuleError{Rule: RulePass, Message: fmt.Sprintf("%s passes but can still place two tiles", c)}
		}
		return nil
	case Tiles:
		if !read {
			if err := g.checkCells(m); err != nil {
				return err
			}
			if m.A == m.B {
				return notationError("%s names cell %s twice", m, m.A)
			}
		}
		if g.supply == Supply40x15 && g.tilesLeft[c] < 2 {
			if !explain {
				return errIllegal
			}
			return &RuleError{Rule: RuleTile, Message: fmt.Sprintf("%s has %d tiles left and cannot place two", c, g.tilesLeft[c])}
		}
		return g.checkTiles(c, m.A, m.B, &g.plan, explain)
	case Bridge:
		if !read {
			if err := g.checkCells(m); err != nil {
				return err
			}
			if ShapeOf(m.A, m.B) == NoShape {
				return notationError("bridge %s: %s and %s are not a straight, diagonal or knight's jump apart", m, m.A, m.B)
			}
		}
		if g.supply == Supply40x15 && g.bridgesLeft == 0 {
			if !explain {
				return errIllegal
			}
			return &RuleError{Rule: RuleBridge, Message: "the bridge pool is empty"}
		}
		return g.checkBridge(c, m.A, m.B, explain)
	}
	return notationError("unknown move kind %d", m.Kind)
}

func (g *Game) checkCells(m Move) *RuleError {
	for _, c := range [2]Cell{m.A, m.B} {
		if !c.On(g.size) {
			return notationError("cell %s of %s is off the %d×%d board", cellText(c), m, g.size, g.size)
		}
	}
	return nil
}

func (g *Game) play(m Move, explain, read bool) *RuleError {
	if err := g.check(m, explain, read); err != nil {
		return err
	}
	c := g.ToMove()
	switch m.Kind {
	case Swap:
		g.swapped = true
	case Tiles:
		g.applyTiles(c, m.A, m.B, &g.plan)
		g.tilesLeft[c] -= 2
	case Bridge:
		g.applyBridge(c, m.A, m.B)
		g.bridgesLeft--
	}
	g.turn++
	switch {
	case g.lightPassed: // Dark's one more turn after Light's pass (R5.2)
		g.over = true
	case m.Kind == Pass && c == Dark: // R5.3
		g.over = true
	case m.Kind == Pass:
		g.lightPassed = true
	}
	return nil
}
