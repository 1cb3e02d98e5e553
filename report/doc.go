// Package report writes a static HTML report of the games in a ponte database: one folder
// that opens from file:// without a network.
//
// The folder holds index.html (what was selected, the verification summary with the illegal
// games, and per board size the swap balance, the openings with heat maps drawn on a
// board, how games were scored and what happened turn by turn), one page per game under
// games/ (the final position drawn as SVG, the move list with the per-turn features, and a
// little embedded JavaScript to step through the game), style.css, and fonts.css (the
// charts' font, embedded once, so that charts look the same on every machine).
//
// Every chart is drawn with gonum.org/v1/plot as SVG and inlined into the page, and every
// number a chart shows is also in a table under it. Every text that comes from a record
// (names, events, sites, messages, file names, raw text) is written through html/template.
package report
