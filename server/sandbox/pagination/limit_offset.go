package pagination

import (
	"net/http"
	"net/url"
	"strconv"

	"loupe/server/sandbox/drf"
)

// LimitOffsetPagination's configuration in the sandbox (see the YAML's
// x-loupe-pagination-config).
const (
	defaultLimit     = 10
	maxLimit         = 100
	limitQueryParam  = "limit"
	offsetQueryParam = "offset"
)

// limitOffset answers GET /limit-offset/items/ like DRF's
// LimitOffsetPagination. It never fails: bad values fall back to defaults.
func (h *handler) limitOffset(r *http.Request, st *store) (any, *apiError) {
	q := r.URL.Query()
	limit, offset := limitAndOffset(q)
	items := ordered(st, q)
	count := len(items)
	page := countedPage{Count: count, Results: []Item{}}
	if count > 0 && offset <= count {
		page.Results = items[offset:min(offset+limit, count)]
	}
	page.Next, page.Previous = offsetLinks(drf.AbsoluteURL(r, h.prefix), limit, offset, count)
	return page, nil
}

// limitAndOffset reads limit and offset; bad values fall back to defaults.
func limitAndOffset(q url.Values) (limit, offset int) {
	limit = defaultLimit
	if v, ok := drf.LastValue(q, limitQueryParam); ok {
		if n, err := drf.PositiveInt(v, true, maxLimit); err == nil {
			limit = n
		}
	}
	if v, ok := drf.LastValue(q, offsetQueryParam); ok {
		if n, err := drf.PositiveInt(v, false, 0); err == nil {
			offset = n
		}
	}
	return limit, offset
}

// offsetLinks are LimitOffsetPagination's next and previous links from u.
func offsetLinks(u *url.URL, limit, offset, count int) (next, previous *string) {
	withLimit := drf.ReplaceQueryParamURL(u, limitQueryParam, strconv.Itoa(limit))
	if offset+limit < count {
		next = ptr(drf.ReplaceQueryParam(withLimit, offsetQueryParam, strconv.Itoa(offset+limit)))
	}
	switch {
	case offset <= 0:
	case offset-limit <= 0:
		previous = ptr(drf.RemoveQueryParam(withLimit, offsetQueryParam))
	default:
		previous = ptr(drf.ReplaceQueryParam(withLimit, offsetQueryParam, strconv.Itoa(offset-limit)))
	}
	return next, previous
}
