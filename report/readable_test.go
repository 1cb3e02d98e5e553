package report

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/ponte/ponte/stats"
)

// The index as a designer reads it (issue 12): every check below is made on the
// index.html of the fixture, and each failed on the report written before the issue.

var (
	heatRE = regexp.MustCompile(`(?s)<svg class="heat"[^>]*aria-label="([^,"]+), (\d+)×\d+[^"]*".*?</svg>`)
	// A label of a heat map's colour bar: the text after its tick mark.
	heatTickRE = regexp.MustCompile(`<line [^>]*/><text (?:class="tick" )?[^>]*>([^<]*)</text>`)
	// A cell of a heat map: its name, the rest of its hover text and its fill (the old
	// report's cells match too, so that the test fails on it rather than finding none).
	heatCellRE = regexp.MustCompile(`<g class="cell[^"]*"([^>]*)><title>([a-z])(\d+):([^<]*)</title><rect [^>]*fill="(#[0-9a-f]{6})"`)
	alphaRE    = regexp.MustCompile(`data-alpha="([0-9.]+)"`)
	// The hover text's games and the interval of the swap rate and of the opener's score.
	swapTipRE   = regexp.MustCompile(`swapped [^;]* of (\d+) games? \(95% interval ([0-9.]+)–([0-9.]+)%\)`)
	openerTipRE = regexp.MustCompile(`opener(?:'|&#39;)s score [^;]*\(95% interval ([0-9.]+)–([0-9.]+)%\)`)
	miniRE      = regexp.MustCompile(`(?s)<svg class="mini".*?</svg>`)
)

// mirrors are the board's 8 symmetries, written again here so that the test does not
// take them from the code it checks.
var mirrors = [8]func(c, r, n int) (int, int){
	func(c, r, n int) (int, int) { return c, r },
	func(c, r, n int) (int, int) { return n - 1 - c, r },
	func(c, r, n int) (int, int) { return c, n - 1 - r },
	func(c, r, n int) (int, int) { return n - 1 - c, n - 1 - r },
	func(c, r, n int) (int, int) { return r, c },
	func(c, r, n int) (int, int) { return n - 1 - r, c },
	func(c, r, n int) (int, int) { return r, n - 1 - c },
	func(c, r, n int) (int, int) { return n - 1 - r, n - 1 - c },
}

// figure returns the <figure> of the chart id in the index.
func figure(t *testing.T, index, id string) string {
	t.Helper()
	i := strings.Index(index, `<figure class="chart" id="`+id+`"`)
	if i < 0 {
		t.Fatalf("no chart %s", id)
	}
	f := index[i:]
	return f[:strings.Index(f, "</figure>")]
}

func TestReadableIndex(t *testing.T) {
	w, r, _ := writeFixture(t, stats.Filter{}, Options{})
	index := readFile(t, w.Index)

	t.Run("pie rule sentence", func(t *testing.T) {
		for _, b := range r.Boards {
			if b.Swap.Games == 0 {
				continue
			}
			want := "On " + strconv.Itoa(b.Size) + "×" + strconv.Itoa(b.Size) + " the second player swapped in " + pct(b.Swap.Swapped) +
				" of " + strconv.Itoa(b.Swap.Games) + " decided games (95% interval " + interval(b.Swap.Swapped) + ")."
			if !strings.Contains(index, want) {
				t.Errorf("board %d: the index does not say %q", b.Size, want)
			}
		}
		for _, word := range []string{"The pie rule balanced", "The pie rule favours", ">Verdict<", "balanced (½"} {
			if strings.Contains(index, word) {
				t.Errorf("the index still says %q", word)
			}
		}
	})

	t.Run("opening thumbnails in Light", func(t *testing.T) {
		minis := miniRE.FindAllString(index, -1)
		if len(minis) == 0 {
			t.Fatal("no opening thumbnails")
		}
		for _, m := range minis {
			if n := strings.Count(m, `class="pick light"`); n != 2 || strings.Contains(m, "dark") {
				t.Errorf("a thumbnail draws %d Light tiles: %s", n, m)
			}
		}
		css := readFile(t, w.Dir+"/style.css")
		if !strings.Contains(css, "svg.mini .pick.light { fill: var(--light);") {
			t.Error("style.css does not fill the thumbnails' tiles in Light's colour")
		}
	})

	heats := heatRE.FindAllStringSubmatch(index, -1)
	if len(heats) != 3*len(r.Boards) {
		t.Fatalf("%d heat maps, want %d", len(heats), 3*len(r.Boards))
	}

	t.Run("colour bar labels", func(t *testing.T) {
		for _, h := range heats {
			var labels []string
			for _, m := range heatTickRE.FindAllStringSubmatch(h[0], -1) {
				labels = append(labels, m[1])
			}
			if len(labels) < 2 {
				t.Errorf("%s %s×%s: colour bar labelled %q", h[1], h[2], h[2], labels)
				continue
			}
			seen := map[string]bool{}
			for _, l := range labels {
				if seen[l] {
					t.Errorf("%s %s×%s: the label %q twice in %q", h[1], h[2], h[2], l, labels)
				}
				seen[l] = true
			}
			unit := "%"
			if strings.HasPrefix(h[1], "Openings") {
				unit = "opening"
			}
			if !strings.Contains(labels[0], unit) || !strings.Contains(labels[len(labels)-1], unit) {
				t.Errorf("%s %s×%s: colour bar %q: its ends do not say %q", h[1], h[2], h[2], labels, unit)
			}
		}
	})

	t.Run("heat maps folded and faded", func(t *testing.T) {
		for _, h := range heats {
			n, _ := strconv.Atoi(h[2])
			fills := map[[2]int]string{}
			cells := heatCellRE.FindAllStringSubmatch(h[0], -1)
			if len(cells) == 0 {
				t.Fatalf("%s %d×%d: no cells with data", h[1], n, n)
			}
			for _, c := range cells {
				row, _ := strconv.Atoi(c[3])
				fills[[2]int{int(c[2][0] - 'a'), row - 1}] = c[5]
				if strings.HasPrefix(h[1], "Openings") {
					continue
				}
				// A rate's cell is faded by the width of its class's interval: full
				// strength at 20 points or narrower, 0.1 at 60 or wider, linear between;
				// and a class of 4 games or fewer is never drawn at half strength.
				a := alphaRE.FindStringSubmatch(c[1])
				g := swapTipRE.FindStringSubmatch(c[4])
				o := openerTipRE.FindStringSubmatch(c[4])
				if a == nil || g == nil || o == nil {
					t.Fatalf("%s %d×%d: cell %s%s has no strength or interval: %s", h[1], n, n, c[2], c[3], c[0])
				}
				alpha, _ := strconv.ParseFloat(a[1], 64)
				games, _ := strconv.Atoi(g[1])
				lo, hi := g[2], g[3]
				if strings.HasPrefix(h[1], "Opener") {
					lo, hi = o[1], o[2]
				}
				l, _ := strconv.ParseFloat(lo, 64)
				u, _ := strconv.ParseFloat(hi, 64)
				width := (u - l) / 100
				want := 1 - 0.9*min(1, max(0, (width-0.2)/0.4))
				if diff := alpha - want; diff > 0.02 || diff < -0.02 || games <= 4 && alpha >= 0.5 {
					t.Errorf("%s %d×%d: cell %s%s, %d games, interval %s–%s%%, drawn at strength %.2f, want %.2f",
						h[1], n, n, c[2], c[3], games, lo, hi, alpha, want)
				}
			}
			for cell, fill := range fills {
				for _, sym := range mirrors {
					c, r := sym(cell[0], cell[1], n)
					if f := fills[[2]int{c, r}]; f != fill {
						t.Errorf("%s %d×%d: %c%d is %s but its mirror image %c%d is %q", h[1], n, n, 'a'+cell[0], cell[1]+1, fill, 'a'+c, r+1, f)
					}
				}
			}
			if !strings.HasPrefix(h[1], "Openings") && !strings.Contains(h[0], "paler: less certain") {
				t.Errorf("%s %d×%d: the legend does not say how cells fade", h[1], n, n)
			}
		}
		if !strings.Contains(index, "Folded by the board's 8 symmetries") {
			t.Error("the index does not say the maps are folded")
		}
	})

	t.Run("islands formed, one line a player", func(t *testing.T) {
		for _, b := range r.Boards {
			if len(b.ByTurn) == 0 {
				continue
			}
			for _, id := range []string{"islands-formed", "bridges-built"} {
				f := figure(t, index, id+"-"+boardKey(&b))
				for _, want := range []string{">opener (turns 1, 3, 5, …)</text>", ">second player (turns 2, 4, 6, …)</text>", "stroke-dasharray"} {
					if !strings.Contains(f, want) {
						t.Errorf("%s-%d lacks %q", id, b.Size, want)
					}
				}
			}
		}
	})

	t.Run("mobility lines told apart", func(t *testing.T) {
		for _, b := range r.Boards {
			if len(b.ByTurn) == 0 {
				continue
			}
			f := figure(t, index, "mobility-"+boardKey(&b))
			for _, want := range []string{">Light</text>", ">Dark</text>", "stroke-dasharray", "stroke:#d89b00", "stroke:#5b1010"} {
				if !strings.Contains(f, want) && !strings.Contains(strings.ToLower(f), want) {
					t.Errorf("mobility-%d lacks %q", b.Size, want)
				}
			}
		}
	})
}
