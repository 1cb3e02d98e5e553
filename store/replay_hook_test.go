package store_test

import (
	"github.com/ponte/ponte/intake"
	"github.com/ponte/ponte/store"
)

func init() { store.ReplayHook = intake.ReplayStored }
