package pgtest

import (
	"context"
	"testing"

	"loupe/server/internal/pgdb"
)

// Open opens a new database of the package's cluster (DB), migrated as Loupe migrates it at
// start (pgdb.Open), closed when the test ends.
func Open(t testing.TB) *pgdb.DB {
	t.Helper()
	db, err := pgdb.Open(context.Background(), DB(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	return db
}
