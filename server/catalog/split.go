package catalog

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"loupe/app/catalog"
)

// SlimAbove is how many operations an API may have before /catalog.json lists only what the
// sidebar needs of each (catalog.Operation.Partial) and the app fetches the rest of one when
// it is opened, from /catalog/<slug>/<operationId>.json. A document of a thousand operations
// (GitHub's) compiles to over 20 MB of JSON, which the browser would otherwise decode on
// every page load; its index is about 200 kB.
const SlimAbove = 200

// slim returns the catalog as /catalog.json carries it: c itself when no API is larger than
// SlimAbove, else a copy whose large APIs' operations keep only their index fields.
func slim(c *catalog.Catalog) *catalog.Catalog {
	large := false
	for _, a := range c.APIs {
		large = large || len(a.Operations) > SlimAbove
	}
	if !large {
		return c
	}
	out := *c
	out.APIs = make([]catalog.API, len(c.APIs))
	for i, a := range c.APIs {
		if len(a.Operations) > SlimAbove {
			ops := make([]catalog.Operation, len(a.Operations))
			for j, op := range a.Operations {
				ops[j] = op.Index()
			}
			a.Operations = ops
		}
		out.APIs[i] = a
	}
	return &out
}

// details serves the operations /catalog.json lists partially, one JSON document each,
// encoded and compressed (gzip) on first request.
type details struct {
	cat  *catalog.Catalog
	done sync.Map // "<slug>/<operationId>" -> *resource
}

// resource returns the detail of the operation a /catalog/<slug>/<operationId>.json path
// names, or nil when there is none.
func (d *details) resource(path string) *resource {
	key, ok := strings.CutSuffix(strings.TrimPrefix(path, "/catalog/"), ".json")
	if !ok {
		return nil
	}
	if r, ok := d.done.Load(key); ok {
		return r.(*resource)
	}
	slug, id, _ := strings.Cut(key, "/")
	a := d.cat.API(slug)
	if a == nil || len(a.Operations) <= SlimAbove {
		return nil
	}
	op := a.Operation(id)
	if op == nil {
		return nil
	}
	body, err := json.Marshal(op)
	r := &resource{err: err}
	if err != nil {
		r.err = fmt.Errorf("encode operation %s: %w", key, err)
	} else {
		sum := sha256.Sum256(body)
		r = &resource{contentType: "application/json; charset=utf-8", tag: hex.EncodeToString(sum[:8]), identity: body,
			enc: &encodings{gz: compressGzip(body), brDone: closed}}
	}
	got, _ := d.done.LoadOrStore(key, r)
	return got.(*resource)
}

// closed is a closed channel: an encodings without brotli is done.
var closed = func() chan struct{} { c := make(chan struct{}); close(c); return c }()
