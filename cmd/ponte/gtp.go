package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/ponte/ponte/bot"
	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/gtp"
	"github.com/ponte/ponte/pipeline"
)

// gtpOptions are the flags of `ponte gtp`.
type gtpOptions struct {
	bot    string
	size   int
	supply game.Supply
	seed   uint64
}

func newGTPCmd(s *streams) *cobra.Command {
	opts := &gtpOptions{}
	cmd := &cobra.Command{
		Use:     "gtp [flags]",
		Short:   "Serve a bot over the Go Text Protocol on standard input and output",
		Long:    help("gtp"),
		Example: `  ponte gtp --bot sage-100`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runGTP(s, opts)
		},
	}
	f := cmd.Flags()
	opts.bot = "sage"
	f.Var(botFlag(&opts.bot), "bot", "the bot that plays genmove (ponte bots lists them)")
	opts.size = 10
	f.Var(sizeFlag(&opts.size), "size", fmt.Sprintf("board side until boardsize, %d to %d", game.MinSize, game.MaxSize))
	f.Var(supplyFlag(&opts.supply), "supply", `"unlimited" or "40/15" (tiles per colour / bridges) until ponte-supply`)
	f.Uint64Var(&opts.seed, "seed", 1, "random seed of the bot's turns until set_seed")
	return cmd
}

func runGTP(s *streams, opts *gtpOptions) error {
	b, err := bot.New(opts.bot, bot.Options{})
	if err != nil {
		return err
	}
	e, err := gtp.NewEngine(gtp.Config{Bot: b, Name: "ponte", Version: version() + ", bot " + b.Name(),
		Size: opts.size, Supply: opts.supply, Seed: opts.seed})
	if err != nil {
		return err
	}
	var d pipeline.Detached // Ctrl-C stops the command at once, while the engine waits for a line
	err = d.Run(s.ctx, func() error { return e.Serve(s.in, s.out) })
	if err != nil && s.ctx.Err() == nil && s.out.err == nil {
		return usage(err)
	}
	return err // ctx's: "interrupted"; or standard output's, which execute says
}
