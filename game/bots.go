package game

import "strings"

// Populations. People's games and bots' games answer different questions (how the game is
// played, how programs play it) and are never mixed silently.
const (
	PopulationPeople = "people" // the games without a bot player
	PopulationBots   = "bots"   // the games with at least one bot player
	PopulationAll    = "all"    // both together, asked for explicitly
)

// SelfPlaySite is the Site tag that ponte selfplay writes: its games are bots' games.
const SelfPlaySite = "ponte selfplay"

// LightIsAI and DarkIsAI are the tags that mark a player as a bot (Abstract Play's
// players[].is_ai, and ponte match's games): "true" for a bot.
const (
	LightIsAI = "LightIsAI"
	DarkIsAI  = "DarkIsAI"
)

// IsAIValue is the value of LightIsAI or DarkIsAI that marks a bot, compared without
// regard to case.
const IsAIValue = "true"

// IsBot tells whether a game has a bot player: its Site tag is SelfPlaySite; or its Light
// or Dark player is one of bots (the names given with --bots); or tag, which looks up a
// tag's value by name, gives LightIsAI or DarkIsAI as IsAIValue.
func IsBot(site, light, dark string, bots []string, tag func(name string) (string, bool)) bool {
	if site == SelfPlaySite {
		return true
	}
	for _, b := range bots {
		if light == b || dark == b {
			return true
		}
	}
	for _, name := range [...]string{LightIsAI, DarkIsAI} {
		if v, ok := tag(name); ok && strings.EqualFold(v, IsAIValue) {
			return true
		}
	}
	return false
}

// ParseBots returns the names of a --bots list, comma-separated, each trimmed of spaces,
// in the order given; nil for a blank list.
func ParseBots(list string) []string {
	if strings.TrimSpace(list) == "" {
		return nil
	}
	var out []string
	for _, name := range strings.Split(list, ",") {
		out = append(out, strings.TrimSpace(name))
	}
	return out
}
