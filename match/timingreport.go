package match

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/ponte/ponte/internal/numtext"
	"github.com/ponte/ponte/internal/termtext"
)

// Machine is where and when a timing pass ran.
type Machine struct {
	CPU        string    `json:"cpu"`
	GoMaxProcs int       `json:"gomaxprocs"`
	Start      time.Time `json:"start"`
	LoadStart  string    `json:"load_start"`
	LoadEnd    string    `json:"load_end"`
}

// ThisMachine is this machine now, its load at the start; LoadEnd is set at the end.
func ThisMachine() Machine {
	return Machine{CPU: cpuModel(), GoMaxProcs: runtime.GOMAXPROCS(0), Start: time.Now().UTC().Truncate(time.Second), LoadStart: LoadAverage()}
}

// TimingReport is a timing pass with the ladder's ratings: ponte bots --time --json.
type TimingReport struct {
	Size      int               `json:"size"`
	Supply    string            `json:"supply"`
	Positions int               `json:"positions"`
	Rounds    int               `json:"rounds"`
	Machine   Machine           `json:"machine"`
	Bots      []BotTimingRating `json:"bots"`
}

// BotTimingRating is a bot's rating from the ladder (when it has one) and its timing now.
type BotTimingRating struct {
	BotTiming
	Rating   *float64 `json:"rating"`
	RatingLo *float64 `json:"rating_lo"`
	RatingHi *float64 `json:"rating_hi"`
}

// NewTimingReport is the report of the timings of t, run on m, with the ratings of fit.
func NewTimingReport(t *Timing, m Machine, timings []BotTiming, fit *LadderFit) *TimingReport {
	rated := map[string]Rating{}
	for _, r := range fit.Ratings {
		rated[r.Name] = r
	}
	rep := &TimingReport{Size: t.Size, Supply: t.Supply.String(), Positions: t.Positions, Rounds: t.Rounds, Machine: m}
	for _, tm := range timings {
		b := BotTimingRating{BotTiming: tm}
		if r, ok := rated[tm.Name]; ok {
			v := r.Rating
			b.Rating, b.RatingLo, b.RatingHi = &v, r.RatingLo, r.RatingHi
		}
		rep.Bots = append(rep.Bots, b)
	}
	return rep
}

// WriteText prints the timing pass with the ladder's ratings (fit's).
func (rep *TimingReport) WriteText(w io.Writer, fit *LadderFit) {
	safe := termtext.Safe
	fmt.Fprintf(w, "%d×%d, supply %s: ratings from %s ladder games (Elo over %s); time per turn measured now, in one pass:\n",
		rep.Size, rep.Size, rep.Supply, numtext.Thousands(int64(fit.Games)), safe(fit.Anchor))
	fmt.Fprintf(w, "%d positions × %d rounds, the bots taking turns; %s, GOMAXPROCS %d, %s, load average %s → %s\n",
		rep.Positions, rep.Rounds, safe(rep.Machine.CPU), rep.Machine.GoMaxProcs, rep.Machine.Start.Format(time.RFC3339), rep.Machine.LoadStart, rep.Machine.LoadEnd)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "bot\trating\t95% interval\tturns\tms/turn (median)\tquartiles\tplayouts/turn\t")
	for _, b := range rep.Bots {
		rating, iv := "-", "-"
		if b.Rating != nil {
			rating, iv = fmt.Sprintf("%+.0f", *b.Rating), interval(b.RatingLo, b.RatingHi)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%.2f\t%.2f–%.2f\t%s\t\n", safe(b.Name), rating, iv, b.Turns, b.MsPerTurn, b.MsP25, b.MsP75, perTurn(b.PlayoutsPerTurn))
	}
	tw.Flush()
}

// cpuModel reads the processor's name from /proc/cpuinfo, "unknown CPU" where there is none.
func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return "unknown CPU"
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown CPU"
}

// LoadAverage reads the 1-minute load average, "?" where there is none.
func LoadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	if f := strings.Fields(string(b)); len(f) > 0 {
		return f[0]
	}
	return "?"
}
