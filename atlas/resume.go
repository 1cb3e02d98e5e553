package atlas

import "fmt"

// Resume is the config of an atlas stored with settings c, run again with the settings
// given, of which changed names the flags set (ponte atlas run's flags: "size", "max",
// ...). The games depend on the board, the bot and the seed alone: a changed one that
// disagrees with c is an error (db names the atlas in it). The rules of the rounds may
// change: a larger --max extends an atlas.
func (c Config) Resume(given *Config, db string, changed func(flag string) bool) (*Config, error) {
	for _, name := range []string{"size", "supply", "bot", "seed"} {
		if changed(name) && !sameGames(name, given, &c) {
			return nil, fmt.Errorf("--%s: %s holds an atlas of other games (ponte atlas show prints its settings): use another --db", name, db)
		}
	}
	if changed("stability") || changed("stability-bot") || (changed("stability-both") && c.StabilityBot == "") {
		if c.StabilityBot != "" && given.StabilityBot != "" && c.StabilityBot != given.StabilityBot {
			return nil, fmt.Errorf("--stability-bot: %s holds a stability check with %s: use another --db", db, c.StabilityBot)
		}
		c.StabilityBot = given.StabilityBot
	}
	for name, set := range map[string]func(){
		"first": func() { c.First = given.First }, "max": func() { c.Max = given.Max },
		"margin": func() { c.Margin = given.Margin }, "alpha": func() { c.Spending.Alpha = given.Spending.Alpha },
		"rest": func() { c.Spending.Rest = given.Spending.Rest }, "candidates": func() { c.Candidates = given.Candidates },
		"confirm": func() { c.ConfirmGames = given.ConfirmGames }, "panel": func() { c.PanelSize = given.PanelSize },
		"panel-games": func() { c.PanelGames = given.PanelGames }, "v-width": func() { c.VWidth = given.VWidth },
		"stability-both": func() { c.StabilityBoth = given.StabilityBoth },
	} {
		if changed(name) {
			set()
		}
	}
	if err := c.Check(); err != nil {
		return nil, err
	}
	return &c, nil
}

// sameGames reports whether a and b agree on the setting name, one of those the games
// depend on.
func sameGames(name string, a, b *Config) bool {
	switch name {
	case "size":
		return a.Size == b.Size
	case "supply":
		return a.Supply == b.Supply
	case "bot":
		return a.Bot == b.Bot
	}
	return a.Seed == b.Seed
}
