package main

import (
	"strconv"

	"github.com/spf13/cobra"

	"github.com/ponte/ponte/bot"
)

// flagValues are the values shell completion offers for a flag, by the flag's name,
// whatever the command: the same flag means the same thing everywhere.
var flagValues = map[string][]string{
	"light":      botCompletions(),
	"dark":       botCompletions(),
	"supply":     {"unlimited\tno limit on tiles (the default)", "40/15\tthe printed game's 40 tiles and 15 bridges each"},
	"population": {"people\tgames without a bot player", "bots\tgames with a bot player", "all\tboth, together"},
	"size":       sizeCompletions(),
}

// formatValues are the values of --format, which differ by command: what selfplay and
// export write.
var formatValues = []string{"ponte\tthe project's .ponte notation", "jsonl\tJSON Lines, one game per line"}

// botCompletions are the bots (bot.Names), then three budgets of each that takes one.
func botCompletions() []string {
	var out, budgets []string
	for _, name := range bot.Names {
		out = append(out, name+"\ta bot (ponte bots rates them)")
		for _, n := range []int{30, 100, 400} {
			if b := name + "-" + strconv.Itoa(n); bot.ParseName(b) == nil {
				budgets = append(budgets, b+"\t"+name+" with "+strconv.Itoa(n)+" playouts per turn")
			}
		}
	}
	return append(out, budgets...)
}

// sizeCompletions are the board sizes the sites play, first, then every other one the
// rules allow.
func sizeCompletions() []string {
	out := []string{"10\tBoard Game Arena, boardspace.net, Abstract Play", "12\tBrettspielnetz, Abstract Play", "8\tAbstract Play"}
	for n := 5; n <= 26; n++ {
		if n != 8 && n != 10 && n != 12 {
			out = append(out, strconv.Itoa(n))
		}
	}
	return out
}

// addCompletions registers, on every command of the tree under root, the completions of
// its flags that take one of a few values, and files for --db.
func addCompletions(root *cobra.Command) {
	for _, cmd := range root.Commands() {
		addCompletions(cmd)
	}
	fixed := func(values []string) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			return values, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveKeepOrder
		}
	}
	for name, values := range flagValues {
		if root.Flags().Lookup(name) != nil {
			_ = root.RegisterFlagCompletionFunc(name, fixed(values))
		}
	}
	if root.Flags().Lookup("format") != nil {
		_ = root.RegisterFlagCompletionFunc("format", fixed(formatValues))
	}
	if root.Flags().Lookup("db") != nil {
		_ = root.MarkFlagFilename("db", "db", "sqlite")
	}
}
