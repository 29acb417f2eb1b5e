package chat

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"
)

// htmlBlock returns the app inside the answer's ```html fence.
func htmlBlock(t *testing.T, answer string) string {
	t.Helper()
	_, rest, ok := strings.Cut(answer, "```html\n")
	if !ok {
		t.Fatalf("no ```html block in %q", tail(answer, 300))
	}
	page, _, ok := strings.Cut(rest, "```")
	if !ok {
		t.Fatal("the ```html block is not closed")
	}
	return page
}

// parsedApp is what the tests read of an app's document.
type parsedApp struct {
	kinds   map[string]bool
	scripts []string
	title   string
	styles  int
	remote  []string // src or href attributes (none allowed)
}

// parseApp parses page with the HTML5 parser and collects its parts.
func parseApp(t *testing.T, page string) parsedApp {
	t.Helper()
	if !strings.HasPrefix(page, "<!doctype html>") || !strings.HasSuffix(strings.TrimSpace(page), "</html>") {
		t.Fatal("the app is not a complete document")
	}
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatalf("parse app: %v", err)
	}
	p := parsedApp{kinds: map[string]bool{}}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			for _, a := range n.Attr {
				switch a.Key {
				case "data-kind":
					p.kinds[a.Val] = true
				case "src", "href":
					p.remote = append(p.remote, a.Val)
				}
			}
			switch n.Data {
			case "script":
				if n.FirstChild != nil {
					p.scripts = append(p.scripts, n.FirstChild.Data)
				}
			case "style":
				p.styles++
			case "title":
				if n.FirstChild != nil {
					p.title = n.FirstChild.Data
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return p
}

func TestAppKinds(t *testing.T) {
	h := New(Options{Key: testKey})
	tests := []struct {
		prompt string
		kinds  []string
		title  string
	}{
		{"Create a contact form", []string{"form"}, "Contact Form"},
		{"Build a todo list for my book club", []string{"list"}, "Book Club List"},
		{"A sortable table of planets", []string{"table"}, "Planets Table"},
		{"Make a bar chart of monthly rainfall", []string{"chart"}, "Monthly Rainfall Chart"},
		{"A stopwatch for my running laps", []string{"timer"}, "Running Laps Stopwatch"},
		{"A 25 minute pomodoro countdown", []string{"timer"}, "Pomodoro Countdown"},
		{"Simple counter for coffee cups", []string{"counter"}, "Coffee Cups Counter"},
		{"Photo gallery of mountains", []string{"gallery"}, "Mountains Gallery"},
		{"An analytics dashboard for coffee sales", []string{"cards", "chart", "table"}, "Coffee Sales"},
		{"A signup form and a chart of visitors", []string{"form", "chart"}, "Visitors"},
		{"A timer, a counter and a gallery", []string{"timer", "counter", "gallery"}, "Stopwatch & Counter & Gallery"},
	}
	for _, tt := range tests {
		t.Run(tt.prompt, func(t *testing.T) {
			answer := complete(t, h, userBody(tt.prompt, nil)).content()
			p := parseApp(t, htmlBlock(t, answer))
			if len(p.kinds) != len(tt.kinds) {
				t.Errorf("got sections %v; want %v", p.kinds, tt.kinds)
			}
			for _, k := range tt.kinds {
				if !p.kinds[k] {
					t.Errorf("no %s section; got %v", k, p.kinds)
				}
			}
			if len(p.scripts) != 1 || p.styles != 1 {
				t.Fatalf("got %d scripts, %d styles; want one inline script and one style", len(p.scripts), p.styles)
			}
			wantData := p.kinds["list"] || p.kinds["table"] || p.kinds["chart"] || p.kinds["gallery"]
			if got := strings.Contains(p.scripts[0], "const DATA = ["); got != wantData {
				t.Errorf("script declares DATA: %v; want %v", got, wantData)
			}
			if len(p.remote) > 0 {
				t.Errorf("the app loads resources: %q", p.remote)
			}
			if !strings.Contains(p.title, tt.title) {
				t.Errorf("title = %q; want it to contain %q", p.title, tt.title)
			}
			if !strings.Contains(answer, "**Plan**\n\n- ") {
				t.Error("the answer has no plan")
			}
		})
	}
}

func TestNoKindWordPicksOne(t *testing.T) {
	h := New(Options{Key: testKey})
	seen := map[string]bool{}
	for _, prompt := range []string{"hello", "hi there", "good morning", "surprise me", "anything", "what can you do?", "go", "make it nice", "ok", "again"} {
		answer := complete(t, h, userBody(prompt, nil)).content()
		page := htmlBlock(t, answer)
		p := parseApp(t, page)
		if len(p.kinds) == 0 {
			t.Errorf("%q: got an app without sections", prompt)
		}
		if p.kinds["form"] && !strings.Contains(page, "<input") {
			t.Errorf("%q: the form has no fields", prompt)
		}
		if strings.Contains(answer, ": ,") {
			t.Errorf("%q: the plan has an empty item", prompt)
		}
		for k := range p.kinds {
			seen[k] = true
		}
	}
	if len(seen) < 3 {
		t.Errorf("ten prompts without a kind word drew only %v; want variety", seen)
	}
}

func TestFollowUpAddsKinds(t *testing.T) {
	h := New(Options{Key: testKey})
	first := complete(t, h, userBody("a counter for push-ups", nil)).content()
	body := map[string]any{"model": ModelID, "messages": []any{
		map[string]any{"role": "user", "content": "a counter for push-ups"},
		map[string]any{"role": "assistant", "content": first},
		map[string]any{"role": "user", "content": "now add a chart"},
	}}
	answer := complete(t, h, body).content()
	p := parseApp(t, htmlBlock(t, answer))
	if !p.kinds["counter"] || !p.kinds["chart"] {
		t.Errorf("got sections %v; want counter and chart", p.kinds)
	}
	if !strings.HasPrefix(answer, "Here's the updated") {
		t.Errorf("answer starts %q; want it to say it is updated", answer[:40])
	}
}

// dataRows counts the records of the app's DATA array.
func dataRows(page string) int {
	return len(regexp.MustCompile(`(?m)^  \{"id":\d+,`).FindAllStringIndex(page, -1))
}

func TestLongAnswers(t *testing.T) {
	h := New(Options{Key: testKey})
	tests := []struct {
		prompt         string
		rows           int // 0: not checked
		minTok, maxTok int
		finish         string
	}{
		{"a table of 500 rows", 500, 0, 32000, "stop"},
		{"a long todo list", 100, 0, 32000, "stop"},
		{"a form for 40 entries", 40, 0, 32000, "stop"}, // a table is added to hold them
		{"write a 5000 token answer", 0, 5000, 5400, "stop"},
		{"write a 12k tokens dashboard", 0, 12000, 12400, "stop"},
		{"write a 32000 token answer", 0, 32000, 32000, "length"},
		{"a table of 20000 rows", 0, 32000, 32000, "length"},
	}
	for _, tt := range tests {
		t.Run(tt.prompt, func(t *testing.T) {
			d := complete(t, h, userBody(tt.prompt, nil))
			got := d.Usage.CompletionTokens
			if got < tt.minTok || got > tt.maxTok || d.Choices[0].FinishReason != tt.finish {
				t.Errorf("got %d tokens, finish %q; want %d to %d, %q", got, d.Choices[0].FinishReason, tt.minTok, tt.maxTok, tt.finish)
			}
			if tt.finish == "stop" {
				page := htmlBlock(t, d.content())
				p := parseApp(t, page)
				if tt.rows > 0 && dataRows(page) != tt.rows {
					t.Errorf("DATA has %d rows; want %d", dataRows(page), tt.rows)
				}
				if strings.Contains(tt.prompt, "form") && !p.kinds["table"] {
					t.Errorf("got sections %v; want a table for the entries", p.kinds)
				}
			}
		})
	}
}

// TestAppScriptsParse compiles every app's script with node, when node is
// installed, so a syntax error in a template fails here.
func TestAppScriptsParse(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	h := New(Options{Key: testKey})
	dir := t.TempDir()
	prompts := []string{"a contact form with phone and rating", "todo list", "table", "line chart", "stopwatch",
		"10 minute countdown", "counter", "gallery", "dashboard", "signup form, gallery, timer and counter"}
	files := make([]string, len(prompts))
	for i, prompt := range prompts {
		page := htmlBlock(t, complete(t, h, userBody(prompt, nil)).content())
		p := parseApp(t, page)
		files[i] = filepath.Join(dir, strings.ReplaceAll(prompt, " ", "_")+".js")
		if err := os.WriteFile(files[i], []byte(p.scripts[0]), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// One node process compiles every script (vm.Script parses without
	// running), which is what `node --check` does, file by file.
	const check = `for (const f of process.argv.slice(1)) new (require("vm").Script)(require("fs").readFileSync(f, "utf8"), { filename: f });`
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if out, err := exec.CommandContext(ctx, node, append([]string{"-e", check}, files...)...).CombinedOutput(); err != nil {
		t.Errorf("a script does not compile: %v\n%s", err, out)
	}
}

func TestDataIsValidJSON(t *testing.T) {
	h := New(Options{Key: testKey})
	page := htmlBlock(t, complete(t, h, userBody("a table of <script> tags & \"quotes\"", nil)).content())
	if strings.Count(page, "<script") != 1 {
		t.Fatal("the prompt's text opened a script element")
	}
	_, data, _ := strings.Cut(page, "const DATA = ")
	data, _, _ = strings.Cut(data, ";\n")
	data = strings.ReplaceAll(data, ",\n]", "\n]")
	var rows []row
	if err := json.Unmarshal([]byte(data), &rows); err != nil {
		t.Fatalf("DATA is not JSON: %v", err)
	}
	if len(rows) != defaultRows {
		t.Errorf("got %d rows; want %d", len(rows), defaultRows)
	}
}
