package stats

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/store"
)

// Populations (game.PopulationPeople, …). People's games and bots' games answer different
// questions (how the game is played, how programs play it) and are never mixed silently:
// every statistic says which population it covers.
const (
	PopulationPeople = game.PopulationPeople // the games without a bot player
	PopulationBots   = game.PopulationBots   // the games with at least one bot player
	PopulationAll    = game.PopulationAll    // both together, asked for explicitly
)

// Filter selects the games the statistics are computed over (store.Filter, which the
// store turns into its queries).
type Filter = store.Filter

// MaxBots bounds the names of Filter.Bots.
const MaxBots = store.MaxBots

// mainPopulation is the population the default report details (Report.Population):
// people's games, unless no board has FewGames of them while some board has FewGames of
// the bots' (or there are no people's games at all): then the bots'. Both populations
// still get their cards, apart.
func mainPopulation(ctx context.Context, src Source, f Filter, counts []PopulationCount) (string, error) {
	people, bots := PopulationGames(counts, PopulationPeople), PopulationGames(counts, PopulationBots)
	if people == 0 && bots > 0 {
		return PopulationBots, nil
	}
	if bots < FewGames {
		return PopulationPeople, nil
	}
	most := map[string]int{}
	for _, pop := range []string{PopulationPeople, PopulationBots} {
		of := f
		of.Population = pop
		n, err := src.MostOnABoard(ctx, of)
		if err != nil {
			return "", err
		}
		most[pop] = n
	}
	if most[PopulationPeople] < FewGames && most[PopulationBots] >= FewGames {
		return PopulationBots, nil
	}
	return PopulationPeople, nil
}

// PopulationCount is how many legal games of one population come from one format and site.
type PopulationCount struct {
	Population string `json:"population"` // people or bots
	Format     string `json:"format"`     // ponte, jsonl, boardspace, abstractplay
	// Site is the Site tag; "" when absent; "(other sites)" sums the sites past the
	// maxSites most played of the population.
	Site  string `json:"site"`
	Games int    `json:"games"` // legal games
}

// maxSites bounds the sites listed per population: a hostile archive can name a site per
// game.
const maxSites = 20

// OtherSites is the Site of the PopulationCount that sums the sites not listed.
const OtherSites = "(other sites)"

// populations counts the legal games of the selection (without its population) by
// population, format and site: most first, at most maxSites sites per population, the rest
// summed in one row per format.
func populations(ctx context.Context, src Source, f Filter) ([]PopulationCount, error) {
	counts, err := src.SiteCounts(ctx, whole(f))
	if err != nil {
		return nil, err
	}
	var out []PopulationCount
	listed := map[string]int{}
	other := map[[2]string]int{} // population, format → the index in out of its other-sites row
	for _, sc := range counts {
		c := PopulationCount{Population: PopulationPeople, Format: sc.Format, Site: sc.Site, Games: sc.Games}
		if sc.Bot {
			c.Population = PopulationBots
		}
		if listed[c.Population] < maxSites {
			listed[c.Population]++
			out = append(out, c)
			continue
		}
		k := [2]string{c.Population, c.Format}
		i, ok := other[k]
		if !ok {
			i = len(out)
			other[k] = i
			out = append(out, PopulationCount{Population: c.Population, Format: c.Format, Site: OtherSites})
		}
		out[i].Games += c.Games
	}
	slices.SortStableFunc(out, func(a, b PopulationCount) int {
		if c := cmp.Compare(popOrder(a.Population), popOrder(b.Population)); c != 0 {
			return c
		}
		if a.Site == OtherSites || b.Site == OtherSites {
			return cmp.Compare(boolInt(a.Site == OtherSites), boolInt(b.Site == OtherSites))
		}
		return cmp.Compare(b.Games, a.Games)
	})
	return out, nil
}

func popOrder(p string) int {
	switch p {
	case PopulationPeople:
		return 0
	case PopulationBots:
		return 1
	}
	return 2
}

// PopulationGames sums the games of one population in counts.
func PopulationGames(counts []PopulationCount, pop string) int {
	n := 0
	for _, c := range counts {
		if c.Population == pop || pop == PopulationAll {
			n += c.Games
		}
	}
	return n
}

// PopulationName describes a population for titles: "people (games without a bot player)".
func PopulationName(pop string) string {
	switch pop {
	case PopulationPeople:
		return "people (games without a bot player)"
	case PopulationBots:
		return "bots (games with a bot player)"
	case PopulationAll:
		return "people and bots together"
	}
	return pop
}

// Apart is true when the report's cards cover people's games and bots' games apart: the
// default population, over a selection that holds both.
func (r *Report) Apart() bool {
	return r.Filter.Population == "" && PopulationGames(r.Populations, PopulationPeople) > 0 && PopulationGames(r.Populations, PopulationBots) > 0
}

// MainNote says in a sentence which population a report's tables cover and why, for the
// default population ("" when a population was asked for): people's games, or the bots'
// when people's are too few on every board, and that the other population has cards of
// its own. The report and the commands print it beside the cards.
func (r *Report) MainNote() string {
	if r.Filter.Population != "" {
		return ""
	}
	people, bots := PopulationGames(r.Populations, PopulationPeople), PopulationGames(r.Populations, PopulationBots)
	switch {
	case r.Population == PopulationBots && people == 0:
		return "The selection has no people's games: these are the bots' games."
	case r.Population == PopulationBots:
		return fmt.Sprintf("The bots' games are the main population here: no board has %d people's games (there are %d in all). "+
			"People's games have cards of their own, last; --population people gives their tables.", FewGames, people)
	case bots > 0:
		return fmt.Sprintf("People's games are the main population; the bots' %d games have cards of their own, apart; "+
			"--population bots gives their tables.", bots)
	}
	return ""
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
