package op

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"loupe/app/catalog"
	"loupe/app/fetch"
	"loupe/app/ui"
)

// The limits of "Fetch all pages": past either, gathering stops and says the list goes on.
const (
	gatherMaxPages = 100
	gatherMaxBytes = MaxBody
)

// pageGatherer gathers the items of a paged list, page after page, into one list.
type pageGatherer struct {
	pg       *catalog.Pagination
	items    []json.RawMessage
	size     int
	pages    int
	count    string          // the list's total as its first page gave it; "" when unknown
	followed map[string]bool // the pages already asked for, to stop a list that loops
}

func newPageGatherer(pg *catalog.Pagination) *pageGatherer {
	return &pageGatherer{pg: pg, followed: map[string]bool{}}
}

// add takes one page's body and headers and returns the move to the next page: nil at the
// end of the list, or when a limit is reached (full then says so). The next page is read
// where the list keeps its links: in the body, or in the Link header's rel="next".
func (g *pageGatherer) add(body []byte, headers []fetch.Header) (next *PageMove, full string, err error) {
	root, ok := parseJSON(body)
	if !ok {
		return nil, "", fmt.Errorf("page %d is not JSON", g.pages+1)
	}
	raw, err := rawAt(body, g.pg.Results)
	if err != nil {
		return nil, "", fmt.Errorf("page %d: %w", g.pages+1, err)
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, "", fmt.Errorf("page %d: %s is not a list", g.pages+1, g.listName())
	}
	g.pages++
	g.items = append(g.items, items...)
	for _, it := range items {
		g.size += len(it) + 1
	}
	if g.pages == 1 && g.pg.Count != "" {
		if n := root.find(g.pg.Count); n != nil && n.kind == 'n' {
			g.count = n.text
		}
	}
	_, next = pageMovesOf(g.pg, root, headers)
	switch {
	case next == nil:
		return nil, "", nil
	case g.followed[next.key()]:
		return nil, "the list links back to a page already fetched", nil
	case g.pages >= gatherMaxPages:
		return nil, fmt.Sprintf("stopped at %d pages; the list goes on", gatherMaxPages), nil
	case g.size >= gatherMaxBytes:
		return nil, "stopped at " + ui.HumanSize(gatherMaxBytes) + " of items; the list goes on", nil
	}
	g.followed[next.key()] = true
	return next, "", nil
}

// progress says how far gathering has come.
func (g *pageGatherer) progress() string {
	s := ui.Plural(g.pages, "page", "pages") + " · " + ui.Plural(len(g.items), "item", "items")
	if g.count != "" {
		s += " of " + g.count
	}
	return s
}

// body returns what was gathered as one JSON document: the number of pages, the list's total
// when the API gave one, and every item in order, under the list's own path (results, items,
// data.items), so the paged viewer reads the gathered list where it reads one page's. A list
// whose body is the bare array of items (links in a Link header) is gathered as one array.
func (g *pageGatherer) body() []byte {
	var b bytes.Buffer
	if g.pg.Results == "" {
		g.writeItems(&b)
		return b.Bytes()
	}
	fmt.Fprintf(&b, `{"pages":%d,`, g.pages)
	if g.count != "" {
		fmt.Fprintf(&b, `"count":%s,`, g.count)
	}
	path := strings.Split(g.pg.Results, ".")
	for i, part := range path {
		name, _ := json.Marshal(part)
		b.Write(name)
		if i < len(path)-1 {
			b.WriteString(":{")
		}
	}
	b.WriteByte(':')
	g.writeItems(&b)
	b.WriteString(strings.Repeat("}", len(path)))
	return b.Bytes()
}

// writeItems writes the gathered items as one JSON array.
func (g *pageGatherer) writeItems(b *bytes.Buffer) {
	b.WriteByte('[')
	for i, it := range g.items {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(it)
	}
	b.WriteByte(']')
}

// listName names the list in an error: its field, or "the body" for a bare array.
func (g *pageGatherer) listName() string {
	if g.pg.Results == "" {
		return "the body"
	}
	return g.pg.Results
}

// rawAt returns the JSON value at a dotted path of objects ("data.items"); "" is the body.
func rawAt(body []byte, path string) (json.RawMessage, error) {
	cur := json.RawMessage(body)
	if path == "" {
		return cur, nil
	}
	for _, part := range strings.Split(path, ".") {
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(cur, &obj); err != nil {
			return nil, fmt.Errorf("no %s in the answer", path)
		}
		v, ok := obj[part]
		if !ok {
			return nil, fmt.Errorf("no %s in the answer", path)
		}
		cur = v
	}
	return cur, nil
}
