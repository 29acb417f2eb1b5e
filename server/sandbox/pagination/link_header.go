package pagination

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"loupe/server/sandbox/drf"
)

// LinkHeaderPath is the list that gives its links in a Link header.
const LinkHeaderPath = "/link-header/items/"

// linkHeader answers GET /link-header/items/ like the LinkHeaderPagination
// of drf-link-header-pagination: the page-number list's pages (page,
// page_size, ordering), with the body just the page's items and the links
// in an RFC 8288 Link header: first and prev unless on the first page, next
// and last unless on the last page.
func (h *handler) linkHeader(w http.ResponseWriter, r *http.Request, st *store) {
	q := r.URL.Query()
	body, apiErr := h.pageNumber(r, st)
	if apiErr != nil {
		drf.WriteJSON(w, apiErr.status, detail{apiErr.detail})
		return
	}
	p := body.(countedPage)
	size := pageSize
	if v, ok := drf.LastValue(q, pageSizeParam); ok {
		if n, err := drf.PositiveInt(v, true, maxPageSize); err == nil {
			size = n
		}
	}
	numPages := max(1, (p.Count+size-1)/size)
	u := drf.AbsoluteURL(r, h.prefix)
	var links []string
	add := func(rel, href string) { links = append(links, "<"+href+">; rel=\""+rel+"\"") }
	if p.Previous != nil {
		add("first", drf.RemoveQueryParam(u, pageQueryParam))
		add("prev", *p.Previous)
	}
	if p.Next != nil {
		add("next", *p.Next)
		add("last", drf.ReplaceQueryParam(u, pageQueryParam, strconv.Itoa(numPages)))
	}
	if len(links) > 0 {
		w.Header().Set("Link", strings.Join(links, ", "))
	}
	drf.WriteJSON(w, http.StatusOK, p.Results)
}

// ParseLinkHeader reads the links of an RFC 8288 Link header: rel -> URL.
// It is what a client of the Link-header list does (tests use it).
func ParseLinkHeader(v string) map[string]string {
	out := map[string]string{}
	for _, part := range strings.Split(v, ",") {
		target, params, ok := strings.Cut(strings.TrimSpace(part), ";")
		if !ok || !strings.HasPrefix(target, "<") || !strings.HasSuffix(target, ">") {
			continue
		}
		href := strings.TrimSuffix(strings.TrimPrefix(target, "<"), ">")
		if _, err := url.Parse(href); err != nil {
			continue
		}
		for _, p := range strings.Split(params, ";") {
			k, val, _ := strings.Cut(strings.TrimSpace(p), "=")
			if strings.EqualFold(k, "rel") {
				for _, rel := range strings.Fields(strings.Trim(val, `"`)) {
					out[strings.ToLower(rel)] = href
				}
			}
		}
	}
	return out
}
