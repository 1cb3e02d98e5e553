package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The records that the pages of docs/formats/ show whole (code blocks marked ponte or
// json) are real games: ponte verify reads every one and finds it legal, claims included.
func TestFormatsDocsExamples(t *testing.T) {
	pages, err := filepath.Glob("../../docs/formats/*.md")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	n := 0
	for _, page := range pages {
		text, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for i, block := range wholeRecords(string(text)) {
			n++
			path := filepath.Join(dir, strings.TrimSuffix(filepath.Base(page), ".md")+"-"+string(rune('a'+i)))
			if err := os.WriteFile(path, []byte(block), 0o644); err != nil {
				t.Fatal(err)
			}
			stdout, stderr, status := runPonte(t, "", "verify", "--json", path)
			if status != 0 {
				t.Errorf("%s, example %d: ponte verify exits with %d:\n%s%s", page, i+1, status, stdout, stderr)
				continue
			}
			for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
				var v struct{ Legal bool }
				if err := json.Unmarshal([]byte(line), &v); err != nil || !v.Legal {
					t.Errorf("%s, example %d: %s (%v)", page, i+1, line, err)
				}
			}
		}
	}
	if n < 3 {
		t.Errorf("%d whole records in docs/formats/, want the .ponte, JSON Lines and Abstract Play examples", n)
	}
}

// wholeRecords returns the code blocks of a Markdown page whose info string is ponte or
// json.
func wholeRecords(page string) []string {
	var out []string
	var b strings.Builder
	in := false
	for _, line := range strings.SplitAfter(page, "\n") {
		switch trimmed := strings.TrimSpace(line); {
		case !in && (trimmed == "```ponte" || trimmed == "```json"):
			in = true
			b.Reset()
		case in && trimmed == "```":
			in = false
			out = append(out, b.String())
		case in:
			b.WriteString(line)
		}
	}
	return out
}
