package fromdoc

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// list answers a collection's GET: the session's items in creation order, filtered by the
// query parameters named after an item property, one page of them as the document's
// pagination parameters ask, in the answer's wrapper with its total and next-page cursor.
func (c *collections) list(r *http.Request, act *action, coll string) (*answer, *problem) {
	lv, err := c.api.Read(r.Context())
	if err != nil {
		return nil, stateProblem(err)
	}
	lv.mu.RLock()
	defer lv.mu.RUnlock()
	sc := lv.scopeFor(act.res, coll)
	key := "list\x00" + act.op.ID + "\x00" + r.URL.RawQuery + "\x00" + r.Header.Get("Accept")
	if a := sc.cached(key); a != nil {
		return a, nil
	}
	a, p := c.listAnswer(r, act, sc.sorted())
	if p == nil {
		sc.keep(key, a)
	}
	return a, p
}

// listAnswer makes the answer of a list from the collection's items, in order.
func (c *collections) listAnswer(r *http.Request, act *action, entries []*entry) (*answer, *problem) {
	q := r.URL.Query()
	res := act.res
	items := make([]any, 0, len(entries))
	for _, e := range entries {
		if matches(e.Item, res.Filters, q) {
			items = append(items, e.Item)
		}
	}
	total := len(items)
	page, next, p := paginate(res.Pagination, q, items)
	if p != nil {
		return nil, p
	}
	o := act.op
	code := o.successCode()
	media, p := o.pickMedia(r, code)
	if p != nil {
		return nil, p
	}
	if !isJSON(media) {
		return c.doc.render(o, statusOf(code), reply{code: code, media: media}, seedOf(r, code, media))
	}
	v, p := c.doc.wrap(r, o, code, media, res.Wrapper["list"], page, true, func(w map[string]any) {
		if pg := res.Pagination; pg != nil {
			if pg.Total != "" {
				w[pg.Total] = int64(total)
			}
			if pg.Next != "" {
				if next != "" {
					w[pg.Next] = next
				} else {
					delete(w, pg.Next)
				}
			}
		}
	})
	if p != nil {
		return nil, p
	}
	return c.doc.render(o, statusOf(code), reply{code: code, media: media, value: v, set: true}, seedOf(r, code, media))
}

// matches reports whether an item has the value of each filter the query gives (any of
// them, when the query repeats the parameter or separates values with commas).
func matches(item map[string]any, filters []string, q map[string][]string) bool {
	for _, f := range filters {
		want, ok := q[f]
		if !ok {
			continue
		}
		var vals []string
		for _, w := range want {
			vals = append(vals, strings.Split(w, ",")...)
		}
		got := item[f]
		if l, ok := got.([]any); ok {
			if !slices.ContainsFunc(l, func(x any) bool { return slices.Contains(vals, idText(x)) }) {
				return false
			}
			continue
		}
		if !slices.Contains(vals, idText(got)) {
			return false
		}
	}
	return true
}

// paginate takes one page of items as the query asks: limit and offset, a page number and
// size, or a cursor (the offset, encoded) and size. next is the next page's cursor ("" on
// the last page, or when the list does not page by cursor: then it is the next page's
// number or offset).
func paginate(pg *Paging, q map[string][]string, items []any) ([]any, string, *problem) {
	if pg == nil {
		return items, "", nil
	}
	intParam := func(name string, def int) (int, *problem) {
		v := firstOf(q, name)
		if name == "" || v == "" {
			return def, nil
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return 0, &problem{Status: http.StatusBadRequest, Detail: fmt.Sprintf("%s must be a whole number, got %q", name, v),
				Errors: []fieldError{{In: "query", Name: name, Problem: "not a whole number", Expected: "a whole number from 0"}}}
		}
		return n, nil
	}
	size, p := intParam(pg.Limit, pg.Default)
	if p != nil {
		return nil, "", p
	}
	if size == 0 && pg.Limit != "" && firstOf(q, pg.Limit) == "" {
		size = pg.Default
	}
	start := 0
	switch pg.Style {
	case "offset":
		if start, p = intParam(pg.Offset, 0); p != nil {
			return nil, "", p
		}
	case "page":
		n, p := intParam(pg.Page, 1)
		if p != nil {
			return nil, "", p
		}
		start = max(n-1, 0) * size
	case "cursor":
		if c := firstOf(q, pg.Cursor); c != "" {
			b, err := base64.RawURLEncoding.DecodeString(c)
			n, err2 := strconv.Atoi(strings.TrimPrefix(string(b), "offset:"))
			if err != nil || err2 != nil || !strings.HasPrefix(string(b), "offset:") || n < 0 {
				return nil, "", &problem{Status: http.StatusBadRequest, Detail: fmt.Sprintf("%s %q is not a cursor this list gave", pg.Cursor, c),
					Errors: []fieldError{{In: "query", Name: pg.Cursor, Problem: "unknown cursor", Expected: "the cursor of the previous page's answer, or none for the first page"}}}
			}
			start = n
		}
	}
	if size <= 0 {
		size = len(items)
	}
	start = min(start, len(items))
	end := min(start+size, len(items))
	page := items[start:end]
	next := ""
	if end < len(items) {
		switch pg.Style {
		case "cursor":
			next = base64.RawURLEncoding.EncodeToString([]byte("offset:" + strconv.Itoa(end)))
		case "page":
			next = strconv.Itoa(end/size + 1)
		default:
			next = strconv.Itoa(end)
		}
	}
	return page, next, nil
}

func firstOf(q map[string][]string, name string) string {
	if vs := q[name]; len(vs) > 0 {
		return vs[0]
	}
	return ""
}
