package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/ponte/ponte/bot"
	"github.com/ponte/ponte/replay"
)

// The flag types that validate themselves: a value the flag set refuses never reaches the
// command. Each is a pflag.Value over the options struct's own field:
//
//	f.Var(sizeFlag(&opts.size), "size", "board side, 5 to 26")

// sizeFlag is the --size flag that sets *p: a board side from replay.MinSize to
// replay.MaxSize.
func sizeFlag(p *int) countValue { return countValue{p, replay.MinSize, replay.MaxSize, "side"} }

// supplyValue is a --supply flag: "unlimited" or "40/15".
type supplyValue struct{ p *replay.Supply }

// supplyFlag is the --supply flag that sets *p.
func supplyFlag(p *replay.Supply) supplyValue { return supplyValue{p} }

func (v supplyValue) String() string {
	if v.p == nil {
		return replay.Unlimited.String()
	}
	return v.p.String()
}

func (v supplyValue) Set(s string) error {
	su, ok := replay.ParseSupply(s)
	if !ok || s == "" {
		return &valueError{errors.New(`must be "unlimited" or "40/15"`), true}
	}
	*v.p = su
	return nil
}

func (supplyValue) Type() string { return "supply" }

// botValue is a bot's name flag, checked by bot.ParseName without making the bot.
type botValue struct{ p *string }

// botFlag is the bot's name flag that sets *p.
func botFlag(p *string) botValue { return botValue{p} }

func (v botValue) String() string {
	if v.p == nil {
		return ""
	}
	return *v.p
}

func (v botValue) Set(s string) error {
	if err := bot.ParseName(s); err != nil {
		return &valueError{err, false}
	}
	*v.p = s
	return nil
}

func (botValue) Type() string { return "bot" }

// botsValue is a flag of bots' names, comma-separated, each checked by bot.ParseName.
type botsValue struct{ p *[]string }

// botsFlag is the flag of bots' names that sets *p.
func botsFlag(p *[]string) botsValue { return botsValue{p} }

func (v botsValue) String() string {
	if v.p == nil {
		return ""
	}
	return strings.Join(*v.p, ",")
}

func (v botsValue) Set(s string) error {
	names := strings.Split(s, ",")
	for i, n := range names {
		names[i] = strings.TrimSpace(n)
		if err := bot.ParseName(names[i]); err != nil {
			return &valueError{err, false}
		}
	}
	*v.p = names
	return nil
}

func (botsValue) Type() string { return "bots" }

// valueError is a flag's value that its type refuses, said with the flag's name
// (flagError): "--light: unknown bot …", or with the value too (quote):
// `--supply "40/16": must be "unlimited" or "40/15"`.
type valueError struct {
	err   error
	quote bool
}

func (e *valueError) Error() string { return e.err.Error() }
func (e *valueError) Unwrap() error { return e.err }

// maxCount is the largest value a count flag takes (games, rounds, positions): 2^20. Work
// is streamed, but a count is also a promise of time, and a value past this is a typing
// mistake, refused before any work.
const maxCount = 1 << 20

// countValue is a whole-number flag bounded from lo to hi, checked when the flag is parsed:
// a value out of bounds never reaches the command, and is a usage error (flagError).
type countValue struct {
	p      *int
	lo, hi int
	typ    string // the kind of value in the help: "int", "side"
}

// countFlag is the count flag that sets *p to a value from lo to hi.
func countFlag(p *int, lo, hi int) countValue { return countValue{p, lo, hi, "int"} }

func (v countValue) String() string {
	if v.p == nil {
		return "0"
	}
	return strconv.Itoa(*v.p)
}

func (v countValue) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n < v.lo || n > v.hi {
		return &boundsError{v.lo, v.hi, err != nil}
	}
	*v.p = n
	return nil
}

func (v countValue) Type() string { return v.typ }

// boundsError is a count flag's value out of its bounds (or not a whole number).
type boundsError struct {
	lo, hi   int
	notWhole bool
}

func (e *boundsError) Error() string { return fmt.Sprintf("a whole number from %d to %d", e.lo, e.hi) }

// flagError is the root's flag error function: a count flag's value out of bounds is said
// with the flag's name and bounds, "--games must be from 1 to 1048576, not 0"; any other
// flag error is cobra's.
func flagError(_ *cobra.Command, err error) error {
	ive, ok := errors.AsType[*pflag.InvalidValueError](err)
	if !ok {
		return err
	}
	if ve, ok := errors.AsType[*valueError](err); ok && ve.quote {
		return fmt.Errorf("--%s %q: %w", ive.GetFlag().Name, ive.GetValue(), ve.err)
	} else if ok {
		return fmt.Errorf("--%s: %w", ive.GetFlag().Name, ve.err)
	}
	be, ok := errors.AsType[*boundsError](err)
	if !ok {
		return err
	}
	name := "--" + ive.GetFlag().Name
	if be.notWhole {
		return fmt.Errorf("%s must be a whole number from %d to %d, not %q", name, be.lo, be.hi, ive.GetValue())
	}
	return fmt.Errorf("%s must be from %d to %d, not %s", name, be.lo, be.hi, ive.GetValue())
}
