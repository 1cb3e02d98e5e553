package atlas

import (
	"strings"
	"testing"
)

func TestResume(t *testing.T) {
	stored := DefaultConfig()
	stored.Size, stored.Bot, stored.First, stored.Max = 5, "sage-4", 4, 8
	if err := stored.Check(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		given   Config
		changed []string
		err     string
		max     int
	}{
		{"nothing given", Config{}, nil, "", 8},
		{"a larger max extends", Config{Max: 16}, []string{"max"}, "", 16},
		{"the same size", Config{Size: 5}, []string{"size"}, "", 8},
		{"another size", Config{Size: 6}, []string{"size"}, "--size: atlas.db holds an atlas of other games", 0},
		{"another bot", Config{Bot: "sage-8"}, []string{"bot"}, "--bot: atlas.db", 0},
		{"another seed", Config{Seed: 2}, []string{"seed"}, "--seed: atlas.db", 0},
		{"a bot not changed is kept", Config{Bot: "sage-8", Max: 16}, []string{"max"}, "", 16},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := stored.Resume(&tc.given, "atlas.db", func(name string) bool {
				for _, c := range tc.changed {
					if c == name {
						return true
					}
				}
				return false
			})
			switch {
			case tc.err != "":
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("Resume: %v, want %q", err, tc.err)
				}
			case err != nil:
				t.Errorf("Resume: %v", err)
			case got.Max != tc.max || got.Bot != stored.Bot || got.Size != stored.Size:
				t.Errorf("Resume: %+v, want max %d and the stored games' settings", got, tc.max)
			}
		})
	}
}
