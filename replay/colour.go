package replay

import "github.com/ponte/ponte/game"

// Colour is one of the two colours. Light is the colour of the opening move.
type Colour uint8

// The two colours. Their values index the [2] arrays the engine returns ([light, dark]).
const (
	Light Colour = 0
	Dark  Colour = 1
)

// Other returns the opposite colour.
func (c Colour) Other() Colour { return c ^ 1 }

// String returns "Light" or "Dark".
func (c Colour) String() string {
	if c == Light {
		return "Light"
	}
	return "Dark"
}

// bit is the cell-state bit of a tile of this colour.
func (c Colour) bit() uint8 { return 1 << c }

// Supply is the per-game setting of how many tiles and bridges there are: game.Supply,
// named here for the engine's callers.
type Supply = game.Supply

// The supplies (game's).
const (
	// Unlimited: tiles and bridges never run out (Board Game Arena, Brettspielnetz).
	Unlimited = game.Unlimited
	// Supply40x15: 40 tiles per colour and one pool of 15 bridges shared by both (the printed game).
	Supply40x15 = game.Supply40x15
)

// Supply limits of the printed game.
const (
	TilesPerColour = 40
	BridgePool     = 15
)

// ParseSupply reads "unlimited" or "40/15"; the empty string means the default, unlimited
// (game.ParseSupply).
func ParseSupply(s string) (Supply, bool) { return game.ParseSupply(s) }
