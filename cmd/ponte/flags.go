package main

import (
	"fmt"
	"strconv"

	"github.com/ponte/ponte/bot"
	"github.com/ponte/ponte/replay"
)

// The flag types that validate themselves: a value the flag set refuses never reaches the
// command. Each is a pflag.Value over the options struct's own field:
//
//	f.Var(sizeFlag(&opts.size), "size", "board side, 5 to 26")

// sizeValue is a --size flag: a board side from replay.MinSize to replay.MaxSize.
type sizeValue struct{ p *int }

// sizeFlag is the --size flag that sets *p.
func sizeFlag(p *int) sizeValue { return sizeValue{p} }

func (v sizeValue) String() string {
	if v.p == nil {
		return "0"
	}
	return strconv.Itoa(*v.p)
}

func (v sizeValue) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n < replay.MinSize || n > replay.MaxSize {
		return fmt.Errorf("a board side is from %d to %d", replay.MinSize, replay.MaxSize)
	}
	*v.p = n
	return nil
}

func (sizeValue) Type() string { return "side" }

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
		return fmt.Errorf(`must be "unlimited" or "40/15"`)
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
		return err
	}
	*v.p = s
	return nil
}

func (botValue) Type() string { return "bot" }

// maxCount is the largest value a count flag takes (games, rounds, positions): 2^20. Work
// is streamed, but a count is also a promise of time, and a value past this is a typing
// mistake, refused before any work.
const maxCount = 1 << 20

// countValue is a count flag bounded from lo to hi, checked when the flag is parsed.
type countValue struct {
	p      *int
	lo, hi int
}

// countFlag is the count flag that sets *p to a value from lo to hi.
func countFlag(p *int, lo, hi int) countValue { return countValue{p, lo, hi} }

func (v countValue) String() string {
	if v.p == nil {
		return "0"
	}
	return strconv.Itoa(*v.p)
}

func (v countValue) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n < v.lo || n > v.hi {
		return fmt.Errorf("a whole number from %d to %d", v.lo, v.hi)
	}
	*v.p = n
	return nil
}

func (countValue) Type() string { return "int" }
