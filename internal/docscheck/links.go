// Package docscheck checks that the documentation stands alone: every relative link of
// the repository's Markdown files points to a file of the repository that exists, and to
// a heading of it that exists, and no path written in the text leaves the repository.
package docscheck

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Problem is one reference of a Markdown file that does not hold.
type Problem struct {
	File string // the file, relative to the repository's root, with '/' separators
	Line int    // 1-based
	Ref  string // the link target or the path, as written
	Why  string
}

func (p Problem) String() string {
	return fmt.Sprintf("%s:%d: %s: %s", p.File, p.Line, p.Ref, p.Why)
}

// Files returns the Markdown files under root, relative to it with '/' separators, in
// lexical order: every *.md file but those in hidden folders and node_modules.
func Files(root string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (strings.HasPrefix(name, ".") || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(name, ".md") {
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	slices.Sort(out)
	return out, err
}

// Check checks the Markdown files (paths relative to root, as Files returns them):
//
//   - every link that is not a URL ([text](target), ![alt](target), [id]: target, and
//     href or src attributes) must stay inside root and name a file or folder that
//     exists; an anchor (#heading), in the same file or in another Markdown file, must
//     be one of that file's headings, as GitHub makes anchors of them;
//   - a path written as code that starts with "../" (`../shared/RULES.md`, or a word of
//     `ponte verify ../shared/samples`) must name a file or folder of the repository from
//     the file's folder: a reader of a clone has nothing beside it.
//
// Links and paths inside fenced code blocks are not looked at.
func Check(root string, files []string) ([]Problem, error) {
	c := checker{root: root, docs: map[string]*doc{}}
	var out []Problem
	for _, f := range files {
		d, err := c.doc(f)
		if err != nil {
			return nil, err
		}
		for _, r := range d.refs {
			if why := c.check(f, r); why != "" {
				out = append(out, Problem{File: f, Line: r.line, Ref: r.target, Why: why})
			}
		}
	}
	return out, nil
}

// ref is a link or a path met in a file.
type ref struct {
	target string
	line   int
	code   bool // a path written as code, not a link
}

// doc is what Check needs of one Markdown file.
type doc struct {
	refs    []ref
	anchors map[string]bool
}

type checker struct {
	root string
	docs map[string]*doc // by path relative to root
}

// doc reads and parses the Markdown file f (relative to root), once.
func (c *checker) doc(f string) (*doc, error) {
	if d, ok := c.docs[f]; ok {
		return d, nil
	}
	data, err := os.ReadFile(filepath.Join(c.root, filepath.FromSlash(f)))
	if err != nil {
		return nil, err
	}
	d := parse(data)
	c.docs[f] = d
	return d, nil
}

// check returns why the reference r of file f does not hold, or "".
func (c *checker) check(f string, r ref) string {
	target := r.target
	if r.code {
		p := path.Join(path.Dir(f), target)
		if p == ".." || strings.HasPrefix(p, "../") {
			return "a path outside the repository, which a clone does not have"
		}
		if _, err := os.Stat(filepath.Join(c.root, filepath.FromSlash(p))); err != nil {
			return "goes up to no file of the repository (a path beside the repository, which a clone does not have?)"
		}
		return ""
	}
	if isURL(target) {
		return ""
	}
	file, anchor, _ := strings.Cut(target, "#")
	if file != "" {
		if u, err := url.PathUnescape(file); err == nil {
			file = u
		}
	}
	if strings.HasPrefix(file, "/") {
		return "an absolute path: link relative to the file"
	}
	dest := f
	if file != "" {
		dest = path.Join(path.Dir(f), file)
		if dest == ".." || strings.HasPrefix(dest, "../") {
			return "leaves the repository: a clone does not have it"
		}
		info, err := os.Stat(filepath.Join(c.root, filepath.FromSlash(dest)))
		if err != nil {
			return "no such file in the repository"
		}
		if info.IsDir() || !strings.HasSuffix(dest, ".md") {
			if anchor != "" && info.IsDir() {
				return "an anchor on a folder"
			}
			return ""
		}
	}
	if anchor == "" {
		return ""
	}
	d, err := c.doc(dest)
	if err != nil {
		return err.Error()
	}
	if u, err := url.PathUnescape(anchor); err == nil {
		anchor = u
	}
	if !d.anchors[strings.ToLower(anchor)] {
		return "no heading of " + dest + " has the anchor #" + anchor
	}
	return ""
}

// isURL reports whether target has a scheme (https:, mailto:, …).
func isURL(target string) bool {
	i := strings.IndexByte(target, ':')
	if i <= 0 {
		return false
	}
	for j, r := range target[:i] {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || j > 0 && (r >= '0' && r <= '9' || r == '+' || r == '-' || r == '.')) {
			return false
		}
	}
	return true
}

var (
	fence      = regexp.MustCompile("^ {0,3}(```+|~~~+)")
	atx        = regexp.MustCompile(`^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$`)
	setext     = regexp.MustCompile(`^ {0,3}(=+|-+)[ \t]*$`)
	refDef     = regexp.MustCompile(`^ {0,3}\[[^\]]+\]:[ \t]*<?([^ \t>]+)>?`)
	attr       = regexp.MustCompile(`(?i)\b(?:href|src)\s*=\s*"([^"]*)"`)
	htmlAnchor = regexp.MustCompile(`(?i)<a\s[^>]*\b(?:name|id)\s*=\s*"([^"]*)"`)
)

// parse finds the links, the paths written as code and the anchors of a Markdown file.
func parse(data []byte) *doc {
	d := &doc{anchors: map[string]bool{}}
	counts := map[string]int{}
	addHeading := func(text string) {
		slug := Slug(text)
		n := counts[slug]
		counts[slug]++
		if n > 0 {
			slug += "-" + strconv.Itoa(n)
		}
		d.anchors[slug] = true
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	inFence, fenceMark := false, ""
	prev := "" // the previous line, outside fences, for setext headings
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if m := fence.FindStringSubmatch(line); m != nil {
			switch {
			case !inFence:
				inFence, fenceMark = true, m[1]
			case strings.HasPrefix(m[1], fenceMark[:1]) && len(m[1]) >= len(fenceMark) && strings.TrimSpace(line[strings.Index(line, m[1])+len(m[1]):]) == "":
				inFence = false
			}
			prev = ""
			continue
		}
		if inFence {
			continue
		}
		if m := atx.FindStringSubmatch(line); m != nil {
			addHeading(m[2])
		} else if setext.MatchString(line) && strings.TrimSpace(prev) != "" && !strings.Contains(prev, "|") && !strings.HasPrefix(strings.TrimSpace(prev), "-") {
			addHeading(strings.TrimSpace(prev))
		}
		for _, m := range htmlAnchor.FindAllStringSubmatch(line, -1) {
			d.anchors[strings.ToLower(m[1])] = true
		}
		if m := refDef.FindStringSubmatch(line); m != nil {
			d.refs = append(d.refs, ref{target: m[1], line: n})
		}
		d.refs = append(d.refs, inline(line, n)...)
		prev = line
	}
	return d
}

// inline returns the links and the paths written as code in one line of text.
func inline(line string, n int) []ref {
	var out []ref
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '`':
			// a code span: from a run of backticks to the next run of the same length
			j := i
			for j < len(line) && line[j] == '`' {
				j++
			}
			ticks := line[i:j]
			end := strings.Index(line[j:], ticks)
			if end < 0 {
				i = j - 1
				continue
			}
			for _, word := range strings.Fields(line[j : j+end]) {
				if strings.HasPrefix(word, "../") {
					out = append(out, ref{target: word, line: n, code: true})
				}
			}
			i = j + end + len(ticks) - 1
		case ']':
			if i+1 < len(line) && line[i+1] == '(' {
				target, ok := linkTarget(line[i+2:])
				if ok {
					out = append(out, ref{target: target, line: n})
				}
			}
		}
	}
	for _, m := range attr.FindAllStringSubmatch(line, -1) {
		out = append(out, ref{target: m[1], line: n})
	}
	return out
}

// linkTarget reads the destination of an inline link from s, the text after "](": up to
// the closing parenthesis, without a title; <…> destinations may hold spaces.
func linkTarget(s string) (string, bool) {
	s = strings.TrimLeft(s, " \t")
	if strings.HasPrefix(s, "<") {
		end := strings.IndexByte(s, '>')
		if end < 0 {
			return "", false
		}
		return s[1:end], true
	}
	depth := 0
	for i, r := range s {
		switch {
		case r == '(':
			depth++
		case r == ')' && depth == 0, r == ' ' || r == '\t':
			return s[:i], i > 0
		case r == ')':
			depth--
		}
	}
	return "", false
}

// Slug returns the anchor GitHub gives a heading of this text: its words, without
// Markdown's marks, lower case, with hyphens for spaces and no punctuation but '-' and '_'.
func Slug(heading string) string {
	// [text](target) → text; `code` and emphasis marks dropped
	for {
		i := strings.Index(heading, "](")
		if i < 0 {
			break
		}
		open := strings.LastIndexByte(heading[:i], '[')
		end := strings.IndexByte(heading[i:], ')')
		if open < 0 || end < 0 {
			break
		}
		heading = heading[:open] + heading[open+1:i] + heading[i+end+1:]
	}
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
			b.WriteRune(r)
		}
	}
	return b.String()
}
