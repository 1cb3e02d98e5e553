package docscheck

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	root := t.TempDir()
	write := func(name, text string) {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("docs/rules.md", "# The rules\n\n## R3.2 — distance\n\n## `ponte verify`\n\nIntro\n=====\n\n## Twice\n\n## Twice\n\n<a id=\"kept\"></a>\n")
	write("sql/games.sql", "select 1;\n")
	tests := []struct {
		name, text string
		problems   []string // "LINE: target", in order
	}{
		{"good", "[a](docs/rules.md) [b](docs/rules.md#r32--distance) [c](docs/rules.md#ponte-verify)\n" +
			"[d](docs/rules.md#intro) [e](docs/rules.md#twice-1) [f](docs/rules.md#kept) [g](sql) [h](sql/games.sql)\n" +
			"[i](https://example.com/x.md) [j](#here) ![k](docs/rules.md \"title\")\n\n## Here\n", nil},
		{"dead file", "see [the rules](docs/rulez.md).\n", []string{"1: docs/rulez.md"}},
		{"leaves", "x\n[rules](../shared/RULES.md)\n", []string{"2: ../shared/RULES.md"}},
		{"absolute", "[rules](/docs/rules.md)\n", []string{"1: /docs/rules.md"}},
		{"dead anchor", "[a](docs/rules.md#r3-distance) [b](#nowhere)\n", []string{"1: docs/rules.md#r3-distance", "1: #nowhere"}},
		{"second twice only", "[a](docs/rules.md#twice-2)\n", []string{"1: docs/rules.md#twice-2"}},
		{"path as code", "the rules (`../shared/RULES.md`) and `../x`\n", []string{"1: ../shared/RULES.md", "1: ../x"}},
		{"path as code in a command", "`docs/rules.md` and `ponte verify ../shared/samples`\n", []string{"1: ../shared/samples"}},
		{"reference", "[r]: ../shared/FORMATS.md\n", []string{"1: ../shared/FORMATS.md"}},
		{"html", "<a href=\"docs/nothing.md\">x</a>\n", []string{"1: docs/nothing.md"}},
		{"fenced", "```\n[a](../shared/RULES.md) `../x`\n```\n~~~sh\n[b](nothing.md)\n~~~\n", nil},
		{"code span", "`[a](../nothing.md)` and ``[b](x) ` `` \n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			write("README.md", tt.text)
			problems, err := Check(root, []string{"README.md"})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range problems {
				got = append(got, strings.Join([]string{strconv.Itoa(p.Line), p.Ref}, ": "))
			}
			if strings.Join(got, "\n") != strings.Join(tt.problems, "\n") {
				t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.problems, "\n"))
			}
		})
	}
}

func TestCheckFromSubfolder(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "docs", "formats"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{
		"docs/formats/ponte.md": "# Ponte\n[up](../formats.md#reading) [root](../../README.md) [out](../../../x.md) `../../../shared/samples`\n",
		"docs/formats.md":       "# Formats\n## Reading\n[sub](formats/ponte.md#ponte) `../README.md` `../../x` `../shared/FORMATS.md`\n",
		"README.md":             "# Readme\n",
	} {
		if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(name)), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files, err := Files(root)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(files, " ") != "README.md docs/formats.md docs/formats/ponte.md" {
		t.Fatalf("files %q", files)
	}
	problems, err := Check(root, files)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range problems {
		got = append(got, p.String())
	}
	want := []string{
		"docs/formats.md:3: ../../x: a path outside the repository, which a clone does not have",
		"docs/formats.md:3: ../shared/FORMATS.md: goes up to no file of the repository (a path beside the repository, which a clone does not have?)",
		"docs/formats/ponte.md:2: ../../../x.md: leaves the repository: a clone does not have it",
		"docs/formats/ponte.md:2: ../../../shared/samples: a path outside the repository, which a clone does not have",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestSlug(t *testing.T) {
	for heading, want := range map[string]string{
		"The rules engine":                       "the-rules-engine",
		"`ponte analyze`":                        "ponte-analyze",
		"R3.2 — distance":                        "r32--distance",
		"1. `.ponte` — the project's notation":   "1-ponte--the-projects-notation",
		"Dead sandbanks (\"burned land\")":       "dead-sandbanks-burned-land",
		"See [the schema](schema.md#the-tables)": "see-the-schema",
		"Where 10×10 differs":                    "where-1010-differs",
	} {
		if got := Slug(heading); got != want {
			t.Errorf("Slug(%q) = %q, want %q", heading, got, want)
		}
	}
}
