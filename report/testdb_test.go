package report

import (
	"database/sql"
	"testing"

	_ "modernc.org/sqlite"

	"github.com/ponte/ponte/store"
)

// testDB is a database as the report reads it (Reader) with, for the tests' own questions
// (which game to look at), a plain connection to it, read-only.
type testDB struct {
	*sql.DB
	Reader *store.Reader
}

// openTestDB opens the database at path both ways, closed when t ends.
func openTestDB(t testing.TB, path string) *testDB {
	t.Helper()
	r, err := store.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { raw.Close(); r.Close() })
	return &testDB{DB: raw, Reader: r}
}
