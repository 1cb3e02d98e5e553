package main

import (
	"testing"

	"github.com/ponte/ponte/game"
	"github.com/spf13/pflag"
)

func TestFlagTypes(t *testing.T) {
	var (
		size   int
		supply game.Supply
		name   string
	)
	for _, tc := range []struct {
		value pflag.Value
		in    string
		ok    bool
		want  string
	}{
		{sizeFlag(&size), "5", true, "5"},
		{sizeFlag(&size), "26", true, "26"},
		{sizeFlag(&size), "4", false, "26"},
		{sizeFlag(&size), "27", false, "26"},
		{sizeFlag(&size), "ten", false, "26"},
		{supplyFlag(&supply), "40/15", true, "40/15"},
		{supplyFlag(&supply), "unlimited", true, "unlimited"},
		{supplyFlag(&supply), "", false, "unlimited"},
		{supplyFlag(&supply), "40/16", false, "unlimited"},
		{botFlag(&name), "sage-100ms", true, "sage-100ms"},
		{botFlag(&name), "greedy", true, "greedy"},
		{botFlag(&name), "alphazero", false, "greedy"},
		{botFlag(&name), "mcts-0", false, "greedy"},
	} {
		err := tc.value.Set(tc.in)
		if (err == nil) != tc.ok {
			t.Errorf("%s.Set(%q) = %v, want ok %v", tc.value.Type(), tc.in, err, tc.ok)
		}
		if got := tc.value.String(); got != tc.want {
			t.Errorf("after %s.Set(%q): %q, want %q (a refused value changes nothing)", tc.value.Type(), tc.in, got, tc.want)
		}
	}
}
