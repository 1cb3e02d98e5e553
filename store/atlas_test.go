package store

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Merging an atlas database adds the games it lacks once; a shard whose game differs under
// the same key is refused and nothing of it is added.
func TestMergeAtlas(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	open := func(name string) *AtlasDB {
		a, err := OpenAtlas(filepath.Join(dir, name), true)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	g := func(class, idx, points int, seed uint64) AtlasGame {
		return AtlasGame{Stage: "main", Class: class, Index: idx, Seed: seed, Points: points, Turns: 30, Bot: "sage-4", Moves: "a1,b2 c3,d4"}
	}
	main, shard, bad := open("main.db"), open("shard.db"), open("bad.db")
	for _, x := range []AtlasGame{g(1, 0, 2, 1<<63+5), g(1, 1, 0, 7)} {
		if err := main.AddAtlasGame(ctx, x); err != nil {
			t.Fatal(err)
		}
	}
	for _, x := range []AtlasGame{g(1, 1, 0, 7), g(2, 0, 1, 9)} {
		shard.AddAtlasGame(ctx, x)
	}
	bad.AddAtlasGame(ctx, g(1, 0, 0, 1<<63+5))
	for _, db := range []*AtlasDB{shard, bad} {
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
	}
	merge := func(name string) (int, error) {
		s, err := OpenAtlas(filepath.Join(dir, name), false)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		return main.MergeAtlas(ctx, s, func(AtlasGame) error { return nil }, func(*AtlasDB) error { return nil })
	}
	for i, want := range []int{1, 0} {
		n, err := merge("shard.db")
		if err != nil || n != want {
			t.Errorf("merge %d: %d games added, %v; want %d", i+1, n, err, want)
		}
	}
	if _, err := merge("bad.db"); err == nil || !strings.Contains(err.Error(), "not a shard of the same atlas") {
		t.Errorf("a shard that disagrees: %v", err)
	}
	var got []AtlasGame
	if err := main.AtlasGames(ctx, func(x AtlasGame) error { got = append(got, x); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[0].Seed != 1<<63+5 || got[0].Points != 2 || got[2].Class != 2 {
		t.Errorf("games after the merges: %+v", got)
	}
	main.Close()
	if _, err := OpenAtlas(filepath.Join(dir, "none.db"), false); err == nil {
		t.Error("opening a missing atlas database without create: no error")
	}
}

// Reading an atlas database (show, plan, export, the report) writes nothing to it.
func TestOpenAtlasReadOnly(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "a.db")
	a, err := OpenAtlas(path, true)
	if err != nil {
		t.Fatal(err)
	}
	a.AddAtlasGame(ctx, AtlasGame{Stage: "main", Class: 1, Points: 2, Bot: "b", Moves: "a1,b2"})
	a.Close()
	before, _ := os.ReadFile(path)
	r, err := OpenAtlas(path, false)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	r.AtlasGames(ctx, func(AtlasGame) error { n++; return nil })
	if err := r.AddAtlasGame(ctx, AtlasGame{Stage: "main", Class: 2}); err == nil {
		t.Error("a database opened for reading took a game")
	}
	r.Close()
	after, _ := os.ReadFile(path)
	if n != 1 || !bytes.Equal(before, after) {
		t.Errorf("%d games read; file changed: %v", n, !bytes.Equal(before, after))
	}
}
