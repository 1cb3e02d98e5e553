// Package match plays one bot against another the way engine developers test a change
// (cutechess-cli, fishtest): game pairs on a set of openings, each opening twice with the
// seats exchanged, and the statistics of such pairs. A pair's result is A's points in its
// two games, 0 to 2 by halves: the five outcomes of the pentanomial model, whose counts
// give the Elo difference with its 95% interval ([Pentanomial.Elo]) and the log-likelihood
// ratio of a sequential probability ratio test ([SPRT]) as fishtest computes them.
//
// Playing both seats of an opening takes the opening's own bias out of the comparison,
// and counting pairs, not games, keeps the correlation between the two games of an
// opening in the variance: the interval is the right width whatever the openings are.
package match
