package match

import (
	"fmt"
	"strings"

	"github.com/ponte/ponte/bot"
	"github.com/ponte/ponte/gtp"
)

// GTPPrefix marks a player that is an engine in another process: "gtp:COMMAND LINE".
const GTPPrefix = "gtp:"

// Players makes players for a match: a bot by its name (newBot), or for "gtp:COMMAND
// LINE" an engine started from the command line (split as a shell splits words,
// gtp.Split, with no shell run), which speaks GTP on its standard input and output
// (docs/protocol.md) and is closed at the end of its game.
func Players(newBot func(name string) (bot.Bot, error)) func(name string) (bot.Bot, error) {
	return func(name string) (bot.Bot, error) {
		line, ok := strings.CutPrefix(name, GTPPrefix)
		if !ok {
			return newBot(name)
		}
		argv, err := gtp.Split(line)
		if err != nil {
			return nil, fmt.Errorf("player %q: %w", name, err)
		}
		return gtp.Start(name, argv, gtp.DefaultTimeout)
	}
}

// NamePlayers makes each player of the match once, to check that it can be made and to
// learn its full name (an arch bot's with its threads: arch-500-t2): an engine is
// started, asked for its commands and closed.
func (c *Config) NamePlayers() error {
	for _, name := range [2]*string{&c.A, &c.B} {
		p, err := c.NewBot(*name)
		if err != nil {
			return err
		}
		if _, isArch := p.(*bot.Arch); isArch {
			*name = p.Name()
		}
		closeBot(p)
	}
	return nil
}
