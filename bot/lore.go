package bot

import (
	"strings"

	"github.com/ponte/ponte/bot/learn"
)

// NewLore returns the lore bot: arch's search with its turns ordered by the priors learned
// from arch's own games (package learn) instead of the hand-made ones, and the same
// budgets: Playouts, TimePerTurn, Threads. docs/bot-design.md, "Learned priors", has the
// matches that judge it.
func NewLore(o Options) *Arch {
	a := NewArch(o)
	a.Priors = learn.Trained()
	a.SetName("lore" + strings.TrimPrefix(a.Name(), "arch")) // arch's name and suffixes
	return a
}

// loreScratch is a tree's model and the position read for its features.
type loreScratch struct {
	model *learn.Model
	board learn.Board
}

// newLoreScratch returns a tree's scratch for the model m, nil without one.
func newLoreScratch(m *learn.Model) *loreScratch {
	if m == nil {
		return nil
	}
	return &loreScratch{model: m}
}
