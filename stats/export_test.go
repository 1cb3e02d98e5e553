package stats

// SetGameParts makes games read the games table in n ranges (0: as many as the cores) and
// returns what undoes it.
func SetGameParts(n int) (undo func()) {
	old := gameParts
	gameParts = n
	return func() { gameParts = old }
}
