package learn

import (
	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/replay"
)

// Model is the weights of the features: a turn's prior is the sum of its features'
// weights, the log of its odds against the other turns of the position.
type Model struct {
	W [NumFeatures]float64
}

// Cell returns the prior of a tile of the mover on the empty cell x of b, whose hand-made
// value is value.
func (m *Model) Cell(b *Board, x game.Cell, value float64) float64 {
	sum := 0.0
	for _, f := range b.cellFeatures(x, value) {
		sum += m.W[f]
	}
	return sum
}

// Pair returns what a tile turn on a and b adds to its two cells' priors.
func (m *Model) Pair(a, b game.Cell) float64 {
	if f := PairFeature(a, b); f >= 0 {
		return m.W[f]
	}
	return 0
}

// Bridge returns the prior of the bridge mv whose hand-made value is value.
func (m *Model) Bridge(mv replay.Move, value float64) float64 {
	var buf [2]int16
	sum := 0.0
	for _, f := range BridgeFeatures(mv, value, buf[:0]) {
		sum += m.W[f]
	}
	return sum
}

// Trained returns the model fitted to the bot's own games (weights.go, made by
// go generate).
func Trained() *Model {
	m := &Model{W: trained}
	return m
}
