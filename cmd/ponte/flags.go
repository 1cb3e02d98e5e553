package main

import (
	"github.com/spf13/cobra"

	"github.com/ponte/ponte/internal/flagvalue"
)

// The flag types that validate themselves (internal/flagvalue).
var (
	countFlag  = flagvalue.NewCount
	sizeFlag   = flagvalue.Size
	supplyFlag = flagvalue.Supply
	botFlag    = flagvalue.Bot
	botsFlag   = flagvalue.Bots
	formatFlag = flagvalue.Format
)

// maxCount is the largest value a count flag takes (flagvalue.MaxCount).
const maxCount = flagvalue.MaxCount

// flagError is the root's flag error function: a bad value is said with the flag's name
// and what it takes (flagvalue.Explain).
func flagError(_ *cobra.Command, err error) error { return flagvalue.Explain(err) }

// addLimitFlags adds the limit flags of a record (docs/limits.md) to cmd, a command that
// reads records, and sets s.limits from them before it runs (a command without them reads
// within the defaults).
func addLimitFlags(cmd *cobra.Command, s *streams) {
	f := flagvalue.AddLimits(cmd.Flags())
	cmd.PreRunE = func(*cobra.Command, []string) (err error) {
		s.limits, err = f.Limits()
		return err
	}
}
