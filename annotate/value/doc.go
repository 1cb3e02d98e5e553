// Package value is a learned value of a position: a small convolutional network that
// gives the score the colour to move can expect in strong self-play (lore-100 against
// lore-100), read from 16 planes of the board and 8 numbers of the position, averaged
// over the 8 symmetries of the board. The reference, how it is trained and what it
// measures against the truth set: docs/annotate.md, "A learned value"; the command that
// plays its games, trains it and measures it: annotate/value/vnet.
package value
