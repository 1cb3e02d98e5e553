package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/ponte/ponte/internal/flagvalue"
)

// The flag types that validate themselves (internal/flagvalue).
type countValue = flagvalue.Count

var (
	countFlag  = flagvalue.NewCount
	sizeFlag   = flagvalue.Size
	supplyFlag = flagvalue.Supply
	botFlag    = flagvalue.Bot
	botsFlag   = flagvalue.Bots
)

// maxCount is the largest value a count flag takes (flagvalue.MaxCount).
const maxCount = flagvalue.MaxCount

// flagError is the root's flag error function: a count flag's value out of bounds is said
// with the flag's name and bounds, "--games must be from 1 to 1048576, not 0"; any other
// flag error is cobra's.
func flagError(_ *cobra.Command, err error) error {
	ive, ok := errors.AsType[*pflag.InvalidValueError](err)
	if !ok {
		return err
	}
	if ve, ok := errors.AsType[*flagvalue.ValueError](err); ok && ve.Quote {
		return fmt.Errorf("--%s %q: %w", ive.GetFlag().Name, ive.GetValue(), ve.Err)
	} else if ok {
		return fmt.Errorf("--%s: %w", ive.GetFlag().Name, ve.Err)
	}
	be, ok := errors.AsType[*flagvalue.BoundsError](err)
	if !ok {
		return err
	}
	name := "--" + ive.GetFlag().Name
	if be.NotWhole {
		return fmt.Errorf("%s must be a whole number from %d to %d, not %q", name, be.Lo, be.Hi, ive.GetValue())
	}
	return fmt.Errorf("%s must be from %d to %d, not %s", name, be.Lo, be.Hi, ive.GetValue())
}
