// Package flagvalue holds the flag types that validate themselves (pflag.Value): a value
// the flag set refuses never reaches the command. Each is a value over the options
// struct's own field:
//
//	f.Var(flagvalue.Size(&opts.size), "size", "board side, 5 to 26")
//
// A refused value is a *BoundsError (a count out of its bounds) or a *ValueError, which
// the command says with the flag's name.
package flagvalue

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/ponte/ponte/bot"
	"github.com/ponte/ponte/game"
)

// MaxCount is the largest value a count flag takes (games, rounds, positions): 2^20. Work
// is streamed, but a count is also a promise of time, and a value past this is a typing
// mistake, refused before any work.
const MaxCount = 1 << 20

// Count is a whole-number flag bounded from lo to hi.
type Count struct {
	p      *int
	lo, hi int
	typ    string // the kind of value in the help: "int", "side"
}

// NewCount is the count flag that sets *p to a value from lo to hi.
func NewCount(p *int, lo, hi int) Count { return Count{p, lo, hi, "int"} }

// Size is the --size flag that sets *p: a board side from game.MinSize to
// game.MaxSize.
func Size(p *int) Count { return Count{p, game.MinSize, game.MaxSize, "side"} }

func (v Count) String() string {
	if v.p == nil {
		return "0"
	}
	return strconv.Itoa(*v.p)
}

func (v Count) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n < v.lo || n > v.hi {
		return &BoundsError{v.lo, v.hi, err != nil}
	}
	*v.p = n
	return nil
}

func (v Count) Type() string { return v.typ }

// BoundsError is a count flag's value out of its bounds (or not a whole number).
type BoundsError struct {
	Lo, Hi   int
	NotWhole bool
}

func (e *BoundsError) Error() string { return fmt.Sprintf("a whole number from %d to %d", e.Lo, e.Hi) }

// ValueError is a flag's value that its type refuses, said with the flag's name:
// "--light: unknown bot …", or with the value too (Quote):
// `--supply "40/16": must be "unlimited" or "40/15"`.
type ValueError struct {
	Err   error
	Quote bool
}

func (e *ValueError) Error() string { return e.Err.Error() }
func (e *ValueError) Unwrap() error { return e.Err }

// SupplyValue is a --supply flag: "unlimited" or "40/15".
type SupplyValue struct{ p *game.Supply }

// Supply is the --supply flag that sets *p.
func Supply(p *game.Supply) SupplyValue { return SupplyValue{p} }

func (v SupplyValue) String() string {
	if v.p == nil {
		return game.Unlimited.String()
	}
	return v.p.String()
}

func (v SupplyValue) Set(s string) error {
	su, ok := game.ParseSupply(s)
	if !ok || s == "" {
		return &ValueError{errors.New(`must be "unlimited" or "40/15"`), true}
	}
	*v.p = su
	return nil
}

func (SupplyValue) Type() string { return "supply" }

// BotValue is a bot's name flag, checked by bot.ParseName without making the bot.
type BotValue struct{ p *string }

// Bot is the bot's name flag that sets *p.
func Bot(p *string) BotValue { return BotValue{p} }

func (v BotValue) String() string {
	if v.p == nil {
		return ""
	}
	return *v.p
}

func (v BotValue) Set(s string) error {
	if err := bot.ParseName(s); err != nil {
		return &ValueError{err, false}
	}
	*v.p = s
	return nil
}

func (BotValue) Type() string { return "bot" }

// BotsValue is a flag of bots' names, comma-separated, each checked by bot.ParseName.
type BotsValue struct{ p *[]string }

// Bots is the flag of bots' names that sets *p.
func Bots(p *[]string) BotsValue { return BotsValue{p} }

func (v BotsValue) String() string {
	if v.p == nil {
		return ""
	}
	return strings.Join(*v.p, ",")
}

func (v BotsValue) Set(s string) error {
	names := strings.Split(s, ",")
	for i, n := range names {
		names[i] = strings.TrimSpace(n)
		if err := bot.ParseName(names[i]); err != nil {
			return &ValueError{err, false}
		}
	}
	*v.p = names
	return nil
}

func (BotsValue) Type() string { return "bots" }
