// Package cmdutil holds what the command tree of ponte (cobra) needs beyond cobra, and
// that no command owns: groups of subcommands and a help command that refuse a word that
// names no command, as a usage error (exit status 2), where cobra prints a help and exits
// 0.
package cmdutil

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// RefuseUnknown makes every group of subcommands in the tree of cmd (a command that runs
// none of its own: the root, ponte atlas) refuse an unknown subcommand as a usage error,
// exit status 2 (cobra would print a group's help and exit 0); a group given no
// subcommand prints its help.
func RefuseUnknown(cmd *cobra.Command) {
	for _, c := range cmd.Commands() {
		RefuseUnknown(c)
	}
	if !cmd.HasSubCommands() || cmd.Runnable() {
		return
	}
	cmd.Args = cobra.ArbitraryArgs
	cmd.DisableFlagsInUseLine = true // its usage: "ponte atlas" (the help) and "ponte atlas [command]"
	cmd.RunE = func(c *cobra.Command, args []string) error {
		switch {
		case len(args) == 0:
			return c.Help()
		case args[0] == "help" && c.HasParent(): // ponte atlas help [run]
			return helpOf(c, args[1:])
		}
		return unknownCommand(c, args[0])
	}
}

// helpOf prints the help of the command that args name under cmd, or says that they name
// none (a usage error).
func helpOf(cmd *cobra.Command, args []string) error {
	target, rest, err := cmd.Find(args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return unknownCommand(target, rest[0])
	}
	return target.Help()
}

// unknownCommand is the usage error of a word that names no subcommand of cmd, with the
// subcommands it may have meant: unknown command "rnu" for "ponte atlas": did you mean run?
func unknownCommand(cmd *cobra.Command, word string) error {
	msg := fmt.Sprintf("unknown command %q for %q", word, cmd.CommandPath())
	if cmd.SuggestionsMinimumDistance <= 0 {
		cmd.SuggestionsMinimumDistance = 2 // cobra's own distance
	}
	if near := cmd.SuggestionsFor(word); len(near) > 0 {
		msg += ": did you mean " + strings.Join(near, " or ") + "?"
	}
	return errors.New(msg)
}

// HelpCommand is ponte help [COMMAND...]: the help of a command, and a usage error, exit
// status 2, for a word that names none (cobra's own prints the root's help and exits 0).
func HelpCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "help [command]",
		Short: "Help about any command",
		Long:  "ponte help COMMAND prints the help of a command, as ponte COMMAND --help does.",
		ValidArgsFunction: func(c *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
			cmd, _, err := c.Root().Find(args)
			if err != nil {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			var names []cobra.Completion
			for _, sub := range cmd.Commands() {
				if sub.IsAvailableCommand() && strings.HasPrefix(sub.Name(), toComplete) {
					names = append(names, cobra.CompletionWithDesc(sub.Name(), sub.Short))
				}
			}
			return names, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(c *cobra.Command, args []string) error { return helpOf(c.Root(), args) },
	}
}
