package store

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/ponte/ponte/game"
)

// Filter selects the games the statistics are computed over. The zero Filter selects every
// game; each set field narrows the selection, and all must hold.
type Filter struct {
	Size   int    `json:"size,omitempty"`   // board side; 0 for every size
	Site   string `json:"site,omitempty"`   // the Site tag, exactly
	Event  string `json:"event,omitempty"`  // the Event tag, exactly
	Player string `json:"player,omitempty"` // a player or bot by name, exactly, on either side
	Source string `json:"source,omitempty"` // part of the source file's name
	From   string `json:"from,omitempty"`   // first date, YYYY-MM-DD or YYYY.MM.DD (inclusive)
	To     string `json:"to,omitempty"`     // last date, inclusive
	// Population selects people's games, bots' games or both (game.PopulationPeople,
	// PopulationBots, PopulationAll); "" is the default of stats.Compute: people when the
	// selection holds any people's games, else bots. The Reader, and so ponte export and
	// the report's game pages, select every population for "".
	Population string `json:"population,omitempty"`
	// Bots names players that are bots, comma-separated, besides those the records mark
	// (see botSQL). A string, not a slice, so that a Filter can be compared.
	Bots string `json:"bots,omitempty"`
}

// MaxBots bounds the names of Filter.Bots: each is a parameter of the queries, which
// SQLite bounds.
const MaxBots = 1000

// BotNames returns the names in Bots, each trimmed of spaces, in the order given.
func (f Filter) BotNames() []string { return game.ParseBots(f.Bots) }

var dateRE = regexp.MustCompile(`^\d{4}[-.]\d{2}[-.]\d{2}$`)

// Validate reports a filter that can select nothing for a reason the user should hear:
// a malformed date or an impossible board size.
func (f Filter) Validate() error {
	for _, d := range []struct{ name, v string }{{"from", f.From}, {"to", f.To}} {
		if d.v == "" {
			continue
		}
		if !dateRE.MatchString(d.v) {
			return fmt.Errorf("--%s %q: want a date YYYY-MM-DD", d.name, d.v)
		}
		if _, err := time.Parse("2006-01-02", strings.ReplaceAll(d.v, ".", "-")); err != nil {
			return fmt.Errorf("--%s %q: no such day (want a date YYYY-MM-DD)", d.name, d.v)
		}
	}
	if f.From != "" && f.To != "" && strings.ReplaceAll(f.From, ".", "-") > strings.ReplaceAll(f.To, ".", "-") {
		return fmt.Errorf("--from %s is after --to %s: no day is in between", f.From, f.To)
	}
	if f.Size != 0 && (f.Size < 5 || f.Size > 26) {
		return fmt.Errorf("--size %d: board sizes are 5 to 26", f.Size)
	}
	switch f.Population {
	case "", game.PopulationPeople, game.PopulationBots, game.PopulationAll:
	default:
		return fmt.Errorf("--population %q: want people, bots or all", f.Population)
	}
	names := f.BotNames()
	if len(names) > MaxBots {
		return fmt.Errorf("--bots: %d names, at most %d", len(names), MaxBots)
	}
	for _, name := range names {
		if name == "" {
			return fmt.Errorf("--bots %q: an empty name (want NAME,NAME,…)", f.Bots)
		}
	}
	return nil
}

// where returns the condition on the games table, under the alias g, that the filter makes,
// and its arguments: "1" for the zero Filter. Population people or bots adds the condition
// on the players (botSQL); "" and all add none.
func (f Filter) where() (string, []any) {
	where, args := f.selection()
	switch f.Population {
	case game.PopulationPeople, game.PopulationBots:
		cond, botArgs := f.populationSQL(f.Population)
		where += " AND " + cond
		args = append(args, botArgs...)
	}
	return where, args
}

// selection is where without the population.
func (f Filter) selection() (string, []any) {
	conds := []string{"1"}
	var args []any
	add := func(cond string, vals ...any) {
		conds = append(conds, cond)
		args = append(args, vals...)
	}
	if f.Size != 0 {
		add("g.size = ?", f.Size)
	}
	if f.Site != "" {
		add("g.site = ?", f.Site)
	}
	if f.Event != "" {
		add("g.event = ?", f.Event)
	}
	if f.Player != "" {
		add("(g.light = ? OR g.dark = ?)", f.Player, f.Player)
	}
	if f.Source != "" {
		add("instr(g.source, ?) > 0", f.Source)
	}
	// Dates are stored as the records write them, YYYY.MM.DD; a date with unknown parts
	// ("2025.??.??") is outside every range.
	if f.From != "" {
		add("g.date >= ? AND g.date NOT LIKE '%?%'", strings.ReplaceAll(f.From, "-", "."))
	}
	if f.To != "" {
		add("g.date <= ? AND g.date NOT LIKE '%?%'", strings.ReplaceAll(f.To, "-", "."))
	}
	return strings.Join(conds, " AND "), args
}

// String describes the filter for titles: "size 10, player mcts"; "all games" when empty.
func (f Filter) String() string {
	var parts []string
	if f.Size != 0 {
		parts = append(parts, fmt.Sprintf("size %d", f.Size))
	}
	for _, p := range []struct{ name, v string }{{"site", f.Site}, {"event", f.Event}, {"player", f.Player}, {"source", f.Source}, {"from", f.From}, {"to", f.To}} {
		if p.v != "" {
			parts = append(parts, p.name+" "+p.v)
		}
	}
	switch f.Population {
	case game.PopulationPeople, game.PopulationBots:
		parts = append(parts, f.Population)
	case game.PopulationAll:
		parts = append(parts, "people and bots")
	}
	if names := f.BotNames(); len(names) > 0 {
		parts = append(parts, "bots "+strings.Join(names, ", "))
	}
	if len(parts) == 0 {
		return "all games"
	}
	return strings.Join(parts, ", ")
}

// populationSQL is the condition that a game belongs to the population people or bots.
func (f Filter) populationSQL(pop string) (string, []any) {
	cond, args := botSQL(f.BotNames())
	if pop == game.PopulationPeople {
		return "NOT " + cond, args
	}
	return cond, args
}

// botSQL returns the condition, on the games table under the alias g, that a game has a
// bot player (game.IsBot), and its arguments: its Site tag is game.SelfPlaySite; or its
// Light or Dark player is one of the names of bots; or its record marks a player as a bot
// (the tags game.LightIsAI or game.DarkIsAI, game.IsAIValue).
func botSQL(bots []string) (string, []any) {
	cond := "coalesce(g.site, '') = " + sqlString(game.SelfPlaySite)
	var args []any
	if len(bots) > 0 {
		marks := strings.TrimSuffix(strings.Repeat("?, ", len(bots)), ", ")
		cond += " OR g.light IN (" + marks + ") OR g.dark IN (" + marks + ")"
		for range 2 {
			for _, b := range bots {
				args = append(args, b)
			}
		}
	}
	// The tags of a game are one row of game_tags (the view tags unpacks them): only a row
	// that mentions IsAI at all is unpacked.
	cond += ` OR EXISTS (SELECT 1 FROM game_tags t, json_each(t.tags) j WHERE t.game = g.id AND instr(t.tags, 'IsAI"') > 0
		AND json_extract(j.value, '$[0]') IN (` + sqlString(game.LightIsAI) + `, ` + sqlString(game.DarkIsAI) + `) AND lower(json_extract(j.value, '$[1]')) = ` + sqlString(game.IsAIValue) + `)`
	return "(" + cond + ")", args
}

// sqlString is s as an SQL string literal.
func sqlString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
