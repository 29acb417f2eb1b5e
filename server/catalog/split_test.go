package catalog

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"testing"

	"loupe/app/catalog"
)

// TestLargeAPIIsSplit: /catalog.json lists the operations of an API over SlimAbove by their
// index fields, and serves each whole at /catalog/<slug>/<id>.json; small APIs stay whole.
func TestLargeAPIIsSplit(t *testing.T) {
	c := loadGood(t)
	big := catalog.API{Slug: "big", Title: "Big"}
	for i := range SlimAbove + 1 {
		big.Operations = append(big.Operations, catalog.Operation{ID: fmt.Sprintf("op%d", i), API: "big", Method: "GET",
			Path: fmt.Sprintf("/things/%d", i), Summary: "Thing", Tags: []string{"things"}, Source: catalog.SourceContract,
			Parameters: []catalog.Parameter{{Name: "q", In: "query", Schema: &catalog.Schema{Type: "string"}}}, Viewer: catalog.ViewerJSON})
	}
	c.APIs = append(c.APIs, big)
	h := Handler(c, os.DirFS("testdata/good"))

	var got catalog.Catalog
	if err := json.Unmarshal(get(h, http.MethodGet, "/catalog.json").Body.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	small, gotBig := got.APIs[0], got.API("big")
	if op := small.Operations[0]; op.Partial || op.Responses == nil {
		t.Errorf("small API: got partial %v, responses %v; want the whole operation", op.Partial, op.Responses)
	}
	if op := gotBig.Operation("op7"); op == nil || !op.Partial || op.Parameters != nil || op.Path != "/things/7" || op.Summary != "Thing" || op.Tags[0] != "things" {
		t.Errorf("big API op7: got %+v; want its index fields only, marked partial", op)
	}

	w := get(h, http.MethodGet, "/catalog/big/op7.json", "Accept-Encoding", "gzip")
	if w.Code != 200 || w.Header().Get("Content-Encoding") != "gzip" {
		t.Fatalf("detail: got %d %q; want 200 gzip", w.Code, w.Header().Get("Content-Encoding"))
	}
	zr, _ := gzip.NewReader(w.Body)
	body, _ := io.ReadAll(zr)
	var op catalog.Operation
	if err := json.Unmarshal(body, &op); err != nil {
		t.Fatal(err)
	}
	if op.Partial || op.ID != "op7" || len(op.Parameters) != 1 || op.Parameters[0].Name != "q" {
		t.Errorf("detail: got %+v; want the whole op7", op)
	}
	if w2 := get(h, http.MethodGet, "/catalog/big/op7.json", "If-None-Match", w.Header().Get("ETag")); w2.Code != http.StatusNotModified {
		t.Errorf("revalidation: got %d; want 304", w2.Code)
	}
	for _, path := range []string{"/catalog/big/nope.json", "/catalog/" + small.Slug + "/" + small.Operations[0].ID + ".json", "/catalog/big/op7"} {
		if w := get(h, http.MethodGet, path); w.Code != http.StatusNotFound {
			t.Errorf("%s: got %d; want 404", path, w.Code)
		}
	}
}
