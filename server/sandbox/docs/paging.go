package docs

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"loupe/server/sandbox/drf"
)

// Pagination settings of the real service: LimitOffsetPagination with a
// default page size of 10 and no maximum, and the project list's
// PageNumberPagination with a fixed size of 100.
const (
	defaultLimit     = 10
	limitQueryParam  = "limit"
	offsetQueryParam = "offset"
	pageQueryParam   = "page"
	projectPageSize  = 100
)

// limitOffset pages items like DRF's LimitOffsetPagination. It never fails:
// a limit that is not a positive integer is the default, a bad offset is 0.
func limitOffset(h *handler, r *http.Request, q url.Values, items []json.RawMessage) page {
	limit := defaultLimit
	if v, ok := drf.LastValue(q, limitQueryParam); ok {
		if n, err := drf.PositiveInt(v, true, 0); err == nil {
			limit = n
		}
	}
	offset := 0
	if v, ok := drf.LastValue(q, offsetQueryParam); ok {
		if n, err := drf.PositiveInt(v, false, 0); err == nil {
			offset = n
		}
	}
	count := len(items)
	out := page{Count: count, Results: []json.RawMessage{}}
	if offset < count {
		out.Results = items[offset:min(offset+limit, count)]
	}
	u := drf.AbsoluteURL(r, h.prefix)
	withLimit := drf.ReplaceQueryParamURL(u, limitQueryParam, strconv.Itoa(limit))
	if offset+limit < count {
		out.Next = ptr(drf.ReplaceQueryParam(withLimit, offsetQueryParam, strconv.Itoa(offset+limit)))
	}
	switch {
	case offset <= 0:
	case offset-limit <= 0:
		out.Previous = ptr(drf.RemoveQueryParam(withLimit, offsetQueryParam))
	default:
		out.Previous = ptr(drf.ReplaceQueryParam(withLimit, offsetQueryParam, strconv.Itoa(offset-limit)))
	}
	return out
}

// pageNumber pages projects like the real service's ProjectPagination (DRF's
// PageNumberPagination, 100 a page, page "last" for the final page). A page
// that does not exist answers 404 {"detail": "Invalid page."}.
func pageNumber(h *handler, r *http.Request, q url.Values, items []json.RawMessage) (int, any) {
	raw, _ := drf.LastValue(q, pageQueryParam)
	count := len(items)
	numPages := max(1, (count+projectPageSize-1)/projectPageSize)
	n := numPages
	if raw != "last" {
		var err error
		n, err = drf.PyInt(raw)
		if err != nil || n < 1 || n > numPages {
			return http.StatusNotFound, detail{"Invalid page."}
		}
	}
	out := page{Count: count, Results: []json.RawMessage{}}
	if start := (n - 1) * projectPageSize; start < count {
		out.Results = items[start:min(start+projectPageSize, count)]
	}
	u := drf.AbsoluteURL(r, h.prefix)
	if n < numPages {
		out.Next = ptr(drf.ReplaceQueryParam(u, pageQueryParam, strconv.Itoa(n+1)))
	}
	switch {
	case n <= 1:
	case n == 2:
		out.Previous = ptr(drf.RemoveQueryParam(u, pageQueryParam))
	default:
		out.Previous = ptr(drf.ReplaceQueryParam(u, pageQueryParam, strconv.Itoa(n-1)))
	}
	return http.StatusOK, out
}

// pageHead is a page without its results, as encoding/json writes it.
type pageHead struct {
	Count    int     `json:"count"`
	Next     *string `json:"next"`
	Previous *string `json:"previous"`
}

// AppendJSON appends the page as encoding/json would write it (drf.Appender): the envelope
// encoded, then the results as they were encoded ahead, without scanning them again.
func (p page) AppendJSON(dst []byte) ([]byte, error) {
	head, err := drf.Marshal(pageHead{Count: p.Count, Next: p.Next, Previous: p.Previous})
	if err != nil {
		return dst, fmt.Errorf("encoding a page's envelope: %w", err)
	}
	dst = append(dst, head[:len(head)-1]...) // up to its closing brace
	dst = append(dst, `,"results":[`...)
	for i, r := range p.Results {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, r...)
	}
	return append(dst, "]}"...), nil
}
