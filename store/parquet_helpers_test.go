package store

import (
	"github.com/ponte/ponte/internal/turntext"
	"github.com/ponte/ponte/store/parquet"
)

// The names store's tests knew the Parquet writer's parts by, before they moved to
// store/parquet.
var (
	errStopped   = parquet.ErrStopped
	stateKey     = parquet.StateKey
	parquetState = parquet.State
	parseDate    = parquet.ParseDate
)

// deriver is parquet.Deriver.
type deriver struct{ d parquet.Deriver }

func (dv *deriver) derive(g *GameRow, bot bool) { dv.d.Derive(g, bot) }

type slab = parquet.Slab

// turnUnpacker is parquet.TurnUnpacker.
type turnUnpacker struct{ u parquet.TurnUnpacker }

func (u *turnUnpacker) set(r *TurnRow, game int64, turn int32, t *turntext.Turn, sl *slab) error {
	return u.u.Set(r, game, turn, t, sl)
}
