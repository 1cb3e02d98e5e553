package flagvalue

import (
	"errors"
	"fmt"

	"github.com/spf13/pflag"
)

// Explain is err, a flag set's error, said with the flag's name: a count out of its
// bounds, "--games must be from 1 to 1048576, not 0"; a value its type refuses, "--supply
// "40": must be ..."; any other error as it is.
func Explain(err error) error {
	ive, ok := errors.AsType[*pflag.InvalidValueError](err)
	if !ok {
		return err
	}
	if ve, ok := errors.AsType[*ValueError](err); ok && ve.Quote {
		return fmt.Errorf("--%s %q: %w", ive.GetFlag().Name, ive.GetValue(), ve.Err)
	} else if ok {
		return fmt.Errorf("--%s: %w", ive.GetFlag().Name, ve.Err)
	}
	be, ok := errors.AsType[*BoundsError](err)
	if !ok {
		return err
	}
	name := "--" + ive.GetFlag().Name
	if be.NotWhole {
		return fmt.Errorf("%s must be a whole number from %d to %d, not %q", name, be.Lo, be.Hi, ive.GetValue())
	}
	return fmt.Errorf("%s must be from %d to %d, not %s", name, be.Lo, be.Hi, ive.GetValue())
}
