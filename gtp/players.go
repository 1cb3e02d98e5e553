package gtp

import (
	"fmt"
	"strings"

	"github.com/ponte/ponte/bot"
)

// Prefix marks a player that is an engine in another process: "gtp:COMMAND LINE".
const Prefix = "gtp:"

// Players makes the players of a match (ponte match): a bot by its name (newBot), or for
// "gtp:COMMAND LINE" an engine started from the command line (split as a shell splits
// words, Split, with no shell run), which speaks GTP on its standard input and output
// (docs/protocol.md) and is closed at the end of its game.
func Players(newBot func(name string) (bot.Bot, error)) func(name string) (bot.Bot, error) {
	return func(name string) (bot.Bot, error) {
		line, ok := strings.CutPrefix(name, Prefix)
		if !ok {
			return newBot(name)
		}
		argv, err := Split(line)
		if err != nil {
			return nil, fmt.Errorf("player %q: %w", name, err)
		}
		p, err := Start(name, argv, DefaultTimeout)
		if err != nil {
			return nil, err // not a nil *Player in a bot.Bot
		}
		return p, nil
	}
}
