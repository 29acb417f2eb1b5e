package pgstore

import (
	"context"
	"strconv"
	"testing"

	"loupe/server/sandbox/state"
	"loupe/server/sandbox/state/boltstore"
	"loupe/server/testenv/pgtest"
)

// BenchmarkRegistry measures what a sandbox request costs the state registry on PostgreSQL
// beside its anchors, bbolt (the embedded default) and memory, in the same run:
//
//   - read: Read of a session that has changes and whose live state is cached, as every GET
//     of a sandbox that was changed: on PostgreSQL the coherence check (one primary-key lookup
//     of the generation), on the others nothing;
//   - write: Get, then ApplyTo of one change, as every changing call: on PostgreSQL the check
//     and one transaction (advisory lock, generation, upsert); on bbolt one fsync'd
//     transaction.
//
// The throw-away cluster runs with fsync off (pgtest), so its writes cost the round trips and
// the work, not the disk: compare the reads, and read the writes as a floor.
func BenchmarkRegistry(b *testing.B) {
	stores := []struct {
		name string
		open func(b *testing.B) state.Store
	}{
		{"memory", func(*testing.B) state.Store { return state.NewMemory() }},
		{"bbolt", func(b *testing.B) state.Store {
			st, err := boltstore.Open(b.TempDir())
			if err != nil {
				b.Fatal(err)
			}
			return st
		}},
		{"postgres", func(b *testing.B) state.Store {
			st, err := Open(context.Background(), pgtest.DB(b))
			if err != nil {
				b.Fatal(err)
			}
			return st
		}},
	}
	for _, s := range stores {
		st := s.open(b)
		api := replica(st)
		ctx := state.WithSession(context.Background(), "user:bench")
		if err := set(ctx, api, "0"); err != nil {
			b.Fatal(err)
		}
		b.Run("read/"+s.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := api.Read(ctx); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("write/"+s.name, func(b *testing.B) {
			i := 0
			for b.Loop() {
				i++
				if err := set(ctx, api, strconv.Itoa(i)); err != nil {
					b.Fatal(err)
				}
			}
		})
		st.Close()
	}
}
