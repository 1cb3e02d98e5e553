package game

// Supply is the per-game setting of how many tiles and bridges there are.
type Supply uint8

const (
	// Unlimited: tiles and bridges never run out (Board Game Arena, Brettspielnetz).
	Unlimited Supply = iota
	// Supply40x15: 40 tiles per colour and one pool of 15 bridges shared by both (the printed game).
	Supply40x15
)

// String returns the notation of the supply: "unlimited" or "40/15".
func (s Supply) String() string {
	if s == Supply40x15 {
		return "40/15"
	}
	return "unlimited"
}

// ParseSupply reads "unlimited" or "40/15"; the empty string means the default, unlimited.
// ok is false for any other text.
func ParseSupply(s string) (sup Supply, ok bool) {
	switch s {
	case "", "unlimited":
		return Unlimited, true
	case "40/15":
		return Supply40x15, true
	}
	return Unlimited, false
}
