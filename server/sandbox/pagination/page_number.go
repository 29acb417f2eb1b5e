package pagination

import (
	"net/http"
	"strconv"

	"loupe/server/sandbox/drf"
)

// PageNumberPagination's configuration in the sandbox (see the YAML's
// x-loupe-pagination-config).
const (
	pageSize          = 10
	pageQueryParam    = "page"
	pageSizeParam     = "page_size"
	maxPageSize       = 100
	invalidPageDetail = "Invalid page."
)

// lastPageStrings are the values of page that select the final page.
var lastPageStrings = []string{"last"}

// countedPage is the body of a page-number or limit/offset list.
type countedPage struct {
	Count    int     `json:"count"`
	Next     *string `json:"next"`
	Previous *string `json:"previous"`
	Results  []Item  `json:"results"`
}

// pageNumber answers GET /page-number/items/ like DRF's PageNumberPagination
// over Django's Paginator (orphans 0, allow_empty_first_page true).
func (h *handler) pageNumber(r *http.Request, st *store) (any, *apiError) {
	q := r.URL.Query()
	size := pageSize
	if v, ok := drf.LastValue(q, pageSizeParam); ok {
		if n, err := drf.PositiveInt(v, true, maxPageSize); err == nil {
			size = n
		}
	}
	items := ordered(st, q)
	count := len(items)
	numPages := max(1, (count+size-1)/size) // Django: ceil(max(1, count)/size)
	raw, _ := drf.LastValue(q, pageQueryParam)
	number := 1
	switch {
	case raw == "":
	case isLastPageString(raw):
		number = numPages
	default:
		n, err := drf.PyInt(raw)
		if err != nil || n < 1 || n > numPages {
			return nil, notFound(invalidPageDetail)
		}
		number = n
	}
	start := (number - 1) * size
	end := min(start+size, count)
	page := countedPage{Count: count, Results: items[start:end]}
	u := drf.AbsoluteURL(r, h.prefix)
	if number < numPages {
		page.Next = ptr(drf.ReplaceQueryParam(u, pageQueryParam, strconv.Itoa(number+1)))
	}
	switch {
	case number == 2:
		page.Previous = ptr(drf.RemoveQueryParam(u, pageQueryParam))
	case number > 2:
		page.Previous = ptr(drf.ReplaceQueryParam(u, pageQueryParam, strconv.Itoa(number-1)))
	}
	return page, nil
}

// isLastPageString reports whether page names the final page.
func isLastPageString(page string) bool {
	for _, s := range lastPageStrings {
		if page == s {
			return true
		}
	}
	return false
}

// ptr returns a pointer to s, for nullable links.
func ptr(s string) *string { return &s }
