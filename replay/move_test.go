package replay

import "testing"

// TestMoveSame: a turn is the same with its two cells in either order, and only with
// its own kind and cells.
func TestMoveSame(t *testing.T) {
	a, b, c := CellAt(0, 0), CellAt(1, 1), CellAt(2, 2)
	for _, tc := range []struct {
		x, y Move
		want bool
	}{
		{TilesMove(a, b), TilesMove(a, b), true},
		{TilesMove(a, b), TilesMove(b, a), true},
		{BridgeMove(a, c), BridgeMove(c, a), true},
		{TilesMove(a, b), BridgeMove(a, b), false},
		{TilesMove(a, b), TilesMove(a, c), false},
		{SwapMove, SwapMove, true},
		{SwapMove, PassMove, false},
	} {
		if got := tc.x.Same(tc.y); got != tc.want {
			t.Errorf("%v.Same(%v) = %v, want %v", tc.x, tc.y, got, tc.want)
		}
	}
}
