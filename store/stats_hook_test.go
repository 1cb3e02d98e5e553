package store_test

import (
	"context"
	"encoding/json"

	"github.com/ponte/ponte/stats"
	"github.com/ponte/ponte/store"
)

// The tests of package store that compare with ponte stats compute it through this hook:
// stats imports store, so store's own tests cannot import stats.
func init() {
	store.ComputeStats = func(r *store.Reader, population string) ([]byte, error) {
		rep, err := stats.Compute(context.Background(), r, stats.Filter{Population: population}, stats.Options{})
		if err != nil {
			return nil, err
		}
		return json.MarshalIndent(rep, "", " ")
	}
}
