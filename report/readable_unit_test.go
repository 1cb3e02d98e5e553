package report

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/ponte/ponte/stats"
)

func TestPieRule(t *testing.T) {
	for _, tc := range []struct {
		name  string
		size  int
		swap  stats.Swap
		want  []string
		never []string
	}{
		{
			name: "two thousand games", size: 10,
			swap: stats.Swap{Games: 2023, Swapped: stats.NewRate(1364, 2023), Opener: stats.NewRate(1010.5, 2023),
				OpenerSwapped: stats.NewRate(650, 1364), OpenerKept: stats.NewRate(360.5, 659), Verdict: "balanced"},
			want: []string{"On 10×10 the second player swapped in 67.4% of 2,023 decided games (95% interval 65.4–69.4%).",
				"The opener, who played turn 1, scored 50.0% (47.8–52.1%; a win counts 1, a draw ½)",
				": 47.7% (45.0–50.3%) in the 1,364 games with a swap, 54.7% (50.9–58.5%) in the 659 games without."},
			never: []string{"balanced", "favours", "fair"},
		},
		{
			name: "one game, never swapped", size: 7,
			swap: stats.Swap{Games: 1, Swapped: stats.NewRate(0, 1), Opener: stats.NewRate(1, 1),
				OpenerSwapped: stats.NewRate(0, 0), OpenerKept: stats.NewRate(1, 1)},
			want: []string{"On 7×7 the second player swapped in 0.0% of 1 decided game (95% interval 0.0–79.3%).",
				": no game with a swap, 100.0% (20.7–100.0%) in the 1 game without."},
		},
		{
			name: "no game", size: 12, swap: stats.Swap{Verdict: "no decided games"},
			want: []string{"On 12×12 no decided game reached turn 2"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := pieRule(tc.size, tc.swap)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("pieRule = %q\nlacks %q", got, w)
				}
			}
			for _, w := range tc.never {
				if strings.Contains(got, w) {
					t.Errorf("pieRule = %q says %q", got, w)
				}
			}
		})
	}
}

func TestMiniBoardLight(t *testing.T) {
	got := string(miniBoard(10, "a1", "j10"))
	if n := strings.Count(got, `class="pick light"`); n != 2 || strings.Contains(got, "dark") {
		t.Errorf("miniBoard draws %d Light tiles: %s", n, got)
	}
}

func TestCountTicks(t *testing.T) {
	for _, tc := range []struct {
		most float64
		want []string
	}{
		{1, []string{"0 openings", "0.5", "1 opening"}},
		{0.25, []string{"0 openings", "0.12", "0.25 openings"}},
		{2, []string{"0 openings", "1", "2 openings"}},
		{24, []string{"0 openings", "12", "24 openings"}},
		{310.5, []string{"0 openings", "155", "311 openings"}},
		{2468, []string{"0 openings", "1.2k", "2.5k openings"}},
	} {
		var got []string
		for _, tk := range countTicks(tc.most) {
			got = append(got, tk[1])
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("countTicks(%v) = %q, want %q", tc.most, got, tc.want)
		}
	}
}

func TestAlpha(t *testing.T) {
	for _, tc := range []struct {
		r    stats.Rate
		want float64
	}{
		{stats.NewRate(0, 0), 0.1},
		{stats.Rate{N: 500, P: 0.5, Lo: 0.45, Hi: 0.55}, 1},
		{stats.Rate{N: 100, P: 0.5, Lo: 0.4, Hi: 0.6}, 1},
		{stats.Rate{N: 25, P: 0.5, Lo: 0.3, Hi: 0.7}, 0.55},
		{stats.Rate{N: 10, P: 0.5, Lo: 0.2, Hi: 0.8}, 0.1},
		{stats.NewRate(1, 1), 0.1},
		{stats.NewRate(2, 4), 0.1},
	} {
		if got := alpha(tc.r); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("alpha(%v) = %.3f, want %.3f", tc.r, got, tc.want)
		}
	}
	// Fewer games never look surer: the strength grows with n at a fixed rate.
	prev := 0.0
	for n := 1; n <= 400; n++ {
		a := alpha(stats.NewRate(float64(n)/2, n))
		if a < prev-1e-12 {
			t.Fatalf("alpha at n = %d is %.3f, less than at n−1 (%.3f)", n, a, prev)
		}
		prev = a
	}
	// However lopsided, 4 games or fewer are drawn below half strength.
	for n := 1; n <= 4; n++ {
		for hits := 0; hits <= n; hits++ {
			if a := alpha(stats.NewRate(float64(hits), n)); a >= 0.5 {
				t.Errorf("%d of %d: strength %.2f", hits, n, a)
			}
		}
	}
}

func TestOrbits(t *testing.T) {
	for _, n := range []int{5, 6, 7, 10, 11, 12, 26} {
		sizes := map[int]int{}
		for col := range n {
			for row := range n {
				k := orbitKey(col, row, n)
				sizes[k]++
				for _, sym := range mirrors {
					c, r := sym(col, row, n)
					if orbitKey(c, r, n) != k {
						t.Errorf("%d×%d: (%d,%d) and its image (%d,%d) in different classes", n, n, col, row, c, r)
					}
				}
			}
		}
		total := 0
		for k, s := range sizes {
			if s != 1 && s != 4 && s != 8 || s == 1 && n%2 == 0 {
				t.Errorf("%d×%d: the class of %d has %d cells", n, n, k, s)
			}
			total += s
		}
		// A side n has ⌈n/2⌉(⌈n/2⌉+1)/2 classes (one eighth of the board, diagonal included).
		h := (n + 1) / 2
		if total != n*n || len(sizes) != h*(h+1)/2 {
			t.Errorf("%d×%d: %d classes of %d cells", n, n, len(sizes), total)
		}
	}
}

// boardOf is a board of side n whose cells agree with its openings (given unfolded, as
// the cells played) and whose swap counts games games.
func boardOf(n int, openings []stats.Opening, games int) *stats.Board {
	b := &stats.Board{Size: n, Openings: openings, Swap: stats.Swap{Games: games}}
	per := map[string][3]float64{} // cell -> games, swapped hits, opener hits
	for _, o := range openings {
		for _, c := range []string{o.A, o.B} {
			v := per[c]
			per[c] = [3]float64{v[0] + float64(o.Games), v[1] + o.Swapped.Hits, v[2] + o.Opener.Hits}
		}
	}
	for row := range n {
		for col := range n {
			name := fmt.Sprintf("%c%d", 'a'+col, row+1)
			v := per[name]
			b.Cells = append(b.Cells, stats.CellStat{Cell: name, Col: col, Row: row, Games: int(v[0]),
				Swapped: stats.NewRate(v[1], int(v[0])), Opener: stats.NewRate(v[2], int(v[0]))})
		}
	}
	return b
}

// syntheticBoard is a board of side n with openings on most cells, of 1 to 40 games each,
// and rates of every kind: a page of small and large boards for the browser.
func syntheticBoard(n int) stats.Board {
	var openings []stats.Opening
	var games, swapped, opener float64
	for k := 0; k+1 < n*n; k += 3 {
		g := 1 + (k*7)%40
		sw, op := float64(g*(k%5))/4, float64(g*(k%3))/2
		openings = append(openings, stats.Opening{
			A: fmt.Sprintf("%c%d", 'a'+k%n, k/n+1), B: fmt.Sprintf("%c%d", 'a'+(k+1)%n, (k+1)/n+1), Games: g,
			Swapped: stats.NewRate(sw, g), Opener: stats.NewRate(op, g)})
		games, swapped, opener = games+float64(g), swapped+sw, opener+op
	}
	b := boardOf(n, openings, int(games))
	b.Swap.Swapped, b.Swap.Opener = stats.NewRate(swapped, int(games)), stats.NewRate(opener, int(games))
	b.Swap.OpenerSwapped, b.Swap.OpenerKept = stats.NewRate(0, 0), stats.NewRate(0, 0)
	b.Games, b.Decided = int(games), int(games)
	return *b
}

func TestFold(t *testing.T) {
	openings := []stats.Opening{
		{A: "a1", B: "f6", Games: 3, Swapped: stats.NewRate(2, 3), Opener: stats.NewRate(1.5, 3)},
		{A: "b1", B: "c3", Games: 2, Swapped: stats.NewRate(0, 2), Opener: stats.NewRate(2, 2)},
	}
	for _, tc := range []struct {
		name          string
		games         int // b.Swap.Games
		exact         bool
		cornerN       int
		cornerPerCell float64
		cornerSwapped float64
		c3N           int // the class of c3 (c3 d3 c4 d4, the centre)
	}{
		{name: "openings add up: each game once", games: 5, exact: true, cornerN: 3, cornerPerCell: 1.5, cornerSwapped: 2.0 / 3, c3N: 2},
		{name: "openings missing: pooled by tiles", games: 9, exact: false, cornerN: 6, cornerPerCell: 1.5, cornerSwapped: 4.0 / 6, c3N: 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := fold(boardOf(6, openings, tc.games))
			if f.exact != tc.exact {
				t.Fatalf("exact = %v, want %v", f.exact, tc.exact)
			}
			corner := f.of[0]            // a1
			if corner != f.of[5+32*5] || // f6
				corner != f.of[5] || corner != f.of[32*5] {
				t.Fatal("the four corners are not one class")
			}
			if len(corner.Cells) != 4 || corner.Swapped.N != tc.cornerN || corner.PerCell != tc.cornerPerCell ||
				math.Abs(corner.Swapped.P-tc.cornerSwapped) > 1e-12 {
				t.Errorf("corner class: %d cells, per cell %v, swapped %v", len(corner.Cells), corner.PerCell, corner.Swapped)
			}
			centre := f.of[2+32*2] // c3
			if len(centre.Cells) != 4 || centre.Swapped.N != tc.c3N || centre.Opener.P != 1 || centre.PerCell != 0.5 {
				t.Errorf("centre class: %d cells (%s), per cell %v, swapped %v, opener %v", len(centre.Cells), centre.names(), centre.PerCell, centre.Swapped, centre.Opener)
			}
			if e := f.of[1+32]; len(e.Cells) != 4 || e.Swapped.N != 0 || e.PerCell != 0 { // b2
				t.Errorf("b2's class: %v", e)
			}
			// The maps draw the same colour on every cell of a class.
			for _, hm := range heatMaps(boardOf(6, openings, tc.games), f) {
				fills := map[string]string{}
				for _, m := range heatCellRE.FindAllStringSubmatch(string(hm.SVG), -1) {
					fills[m[2]+m[3]] = m[5]
				}
				for _, o := range f.orbits {
					for _, c := range o.Cells[1:] {
						if fills[c.Cell] != fills[o.Cells[0].Cell] {
							t.Errorf("%s: %s is %q, %s is %q", hm.Title, c.Cell, fills[c.Cell], o.Cells[0].Cell, fills[o.Cells[0].Cell])
						}
					}
				}
			}
		})
	}
}

// luminance is the relative luminance of c (WCAG).
func luminance(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	lin := func(v uint32) float64 {
		x := float64(v) / 0xffff
		if x <= 0.03928 {
			return x / 12.92
		}
		return math.Pow((x+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}

// TestLinesTellApart: the two lines of a chart differ in dashes, and in lightness enough
// (a contrast ratio of 3 or more) to be told apart without hue: by a reader blind to red
// and green, or on paper in grey.
func TestLinesTellApart(t *testing.T) {
	for _, tc := range []struct {
		name string
		a, b series
	}{
		{"mobility", series{style: lightSeries}, series{style: darkSeries}},
		{"by player", byPlayer(nil)[0], byPlayer(nil)[1]},
	} {
		la, lb := luminance(tc.a.style.Color), luminance(tc.b.style.Color)
		ratio := (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
		if ratio < 3 {
			t.Errorf("%s: contrast ratio %.2f between the two lines", tc.name, ratio)
		}
		if (len(tc.a.style.Dashes) == 0) == (len(tc.b.style.Dashes) == 0) {
			t.Errorf("%s: both lines are %s", tc.name, map[bool]string{true: "solid", false: "dashed"}[len(tc.a.style.Dashes) == 0])
		}
	}
}

func TestByPlayerLines(t *testing.T) {
	var ts []stats.TurnStat
	for turn := 1; turn <= 12; turn++ {
		v := 0.0
		if turn%2 == 1 {
			v = 1 // the opener forms an island every turn, the second player never
		}
		ts = append(ts, stats.TurnStat{Turn: turn, Games: 10, IslandsFormed: v})
	}
	c, err := turnChart("islands", "Islands formed", "islands per turn", ts,
		byPlayer(func(t stats.TurnStat) float64 { return t.IslandsFormed }), 1)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"turn", "games", "opener (turns 1, 3, 5, …)", "second player (turns 2, 4, 6, …)"}; !slices.Equal(c.Table.Head, want) {
		t.Errorf("table head %q, want %q", c.Table.Head, want)
	}
	for _, row := range c.Table.Rows {
		odd := row[0] == "1" || row[0] == "3" || row[0] == "5" || row[0] == "7" || row[0] == "9" || row[0] == "11"
		if odd && (row[2] != "1.0" || row[3] != "") || !odd && (row[2] != "" || row[3] != "0.0") {
			t.Errorf("turn %s: %q", row[0], row)
		}
	}
	if !strings.Contains(string(c.SVG), "stroke-dasharray") {
		t.Error("the second player's line is not dashed")
	}
}
