// Package pagination is the built-in sandbox of the pagination API: three GET
// lists of the same demo items, one per pagination style of Django REST
// framework (PageNumberPagination, LimitOffsetPagination, CursorPagination),
// configured as content/openapi/pagination.yaml documents; sandbox-only calls
// that insert and delete items (mutate.go), so each style can be watched
// while the list changes; and a read-only list of a million items in two
// styles (large.go), where a deep cursor page costs what the first costs.
//
// It is mounted at /sandbox/pagination with the prefix stripped, so it sees
// paths like /page-number/items/. The next and previous links are absolute,
// like DRF's request.build_absolute_uri: they name the address the client
// used (see Options.Prefix and the X-Forwarded-* headers).
package pagination

import (
	"fmt"
	"net/http"
	"strings"

	"loupe/server/sandbox/drf"
	"loupe/server/sandbox/state"
)

// Paths the handler serves, with DRF's trailing slash.
const (
	PageNumberPath  = "/page-number/items/"
	LimitOffsetPath = "/limit-offset/items/"
	CursorPath      = "/cursor/items/"
)

// DefaultPrefix is where the Mux mounts the sandbox; links use it when the
// request neither says where it was mounted (X-Forwarded-Prefix) nor carries
// its original RequestURI.
const DefaultPrefix = "/sandbox/pagination"

// Options configures New. The zero value serves the documented dataset.
type Options struct {
	// Items is the dataset. Nil means DefaultItems() (the 95 documented
	// items); an empty non-nil slice is an empty list.
	Items []Item
	// Prefix is the mount point used in links when the request does not
	// reveal it; default DefaultPrefix.
	Prefix string
	// Registry keeps each sandbox session's items (server/sandbox/state): a
	// session reads the shared seeded items until it inserts or deletes one,
	// and its changes are stored there. Nil means a registry of its own over
	// an in-memory store.
	Registry *state.Registry
}

// sharedLarge is the large list, read-only and so shared by every handler.
var sharedLarge = &largeList{}

// handler serves the three lists over each session's items, and the
// sandbox-only calls that change them.
type handler struct {
	seedItems []Item                 // the dataset
	seedIDs   map[int]bool           // its IDs, to tell a deleted seeded item from an inserted one
	seed      *store                 // the seeded items, never changed: what a session reads until it changes one
	users     *state.API[*userItems] // each session's items
	large     *largeList
	prefix    string
}

// New returns the sandbox handler. It needs no credential: the API has none.
func New(opts Options) http.Handler {
	items := opts.Items
	if items == nil {
		items = DefaultItems()
	}
	h := &handler{prefix: strings.TrimRight(opts.Prefix, "/")}
	if opts.Prefix == "" {
		h.prefix = DefaultPrefix
	}
	h.seedItems, h.seedIDs, h.seed = items, map[int]bool{}, newStore(items)
	for _, it := range items {
		h.seedIDs[it.ID] = true
	}
	reg := opts.Registry
	if reg == nil {
		reg = state.NewRegistry(state.NewMemory(), state.Options{DropEvicted: true})
	}
	// A session that only reads shares one empty userItems (its reads go to the seed) and
	// takes no place in the registry; its first change gives it its own.
	h.users = state.NewAPI(reg, "pagination", h.build).Share(func() (*userItems, error) { return &userItems{}, nil })
	h.large = sharedLarge
	return h
}

// ServeHTTP routes by path (404), then method (405), then answers the list.
func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h.mutate(w, r) {
		return
	}
	if r.URL.Path == LinkHeaderPath && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
		if st := h.items(w, r); st != nil {
			h.linkHeader(w, r, st)
		}
		return
	}
	var serve func(*http.Request, *store) (any, *apiError)
	session := true // the list reads the session's items (the large list is the same for everyone)
	switch r.URL.Path {
	case PageNumberPath:
		serve = h.pageNumber
	case LimitOffsetPath:
		serve = h.limitOffset
	case CursorPath:
		serve = h.cursor
	case LinkHeaderPath:
		serve = nil // GET and HEAD are served above; other methods are 405 below
	case LargeCursorPath:
		serve, session = h.largeCursor, false
	case LargeLimitOffsetPath:
		serve, session = h.largeLimitOffset, false
	default:
		drf.WriteJSON(w, http.StatusNotFound, detail{"Not found."})
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		drf.WriteJSON(w, http.StatusMethodNotAllowed, detail{fmt.Sprintf("Method %q not allowed.", r.Method)})
		return
	}
	var st *store
	if session {
		if st = h.items(w, r); st == nil {
			return
		}
	}
	body, apiErr := serve(r, st)
	if apiErr != nil {
		drf.WriteJSON(w, apiErr.status, detail{apiErr.detail})
		return
	}
	drf.WriteJSON(w, http.StatusOK, body)
}

// detail is DRF's error body.
type detail struct {
	Detail string `json:"detail"`
}

// apiError is a DRF exception: a status and its detail message.
type apiError struct {
	status int
	detail string
}

// Error implements error.
func (e *apiError) Error() string { return fmt.Sprintf("%d %s", e.status, e.detail) }

// notFound is DRF's NotFound exception with the given detail.
func notFound(msg string) *apiError { return &apiError{status: http.StatusNotFound, detail: msg} }
