package match

import "github.com/ponte/ponte/bot"

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
