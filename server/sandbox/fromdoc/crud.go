package fromdoc

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"loupe/server/sandbox/state"
)

// serve answers a collection's operation for the session of r: body is the request's,
// already validated.
func (c *collections) serve(w http.ResponseWriter, r *http.Request, act *action, body []byte) {
	path := strings.TrimRight(c.doc.docPath(r), "/")
	coll, id := locateItem(act, path)
	var a *answer
	var p *problem
	switch act.kind {
	case "list":
		a, p = c.list(r, act, coll)
	case "read":
		a, p = c.read(r, act, coll, id)
	case "create":
		a, p = c.create(r, act, coll, body)
	case "replace", "update":
		a, p = c.change(r, act, coll, id, body)
	case "delete":
		a, p = c.remove(r, act, coll, id)
	default:
		a, p = c.doc.stateless(act.op, r)
	}
	if p != nil {
		p.write(w, r)
		return
	}
	a.write(w, r)
}

// locateItem splits a request's path into its collection's concrete path (as many segments as
// the collection's template) and, for an item action, the item's id: the segment of the
// operation's path that holds the item parameter (/pets/{petId}/adopt holds it too).
func locateItem(act *action, path string) (coll, id string) {
	segs := strings.Split(path, "/")
	n := min(strings.Count(act.res.Collection, "/")+1, len(segs))
	coll = strings.Join(segs[:n], "/")
	if act.kind == "list" || act.kind == "create" {
		return coll, ""
	}
	for i, t := range strings.Split(act.op.Path, "/") {
		if t == "{"+act.res.Param+"}" && i < len(segs) {
			return coll, segs[i]
		}
	}
	return coll, segs[len(segs)-1]
}

// stateProblem words an error of the state registry: a limit (too many sessions, too many
// changes, the shared database away, a concurrent change on another replica) as its own
// status, anything else as a 500.
func stateProblem(err error) *problem {
	if l := state.AsLimit(err); l != nil {
		title := "Sandbox limit"
		switch {
		case errors.Is(err, state.ErrUnavailable):
			title = "Sandbox state unavailable"
		case errors.Is(err, state.ErrConflict):
			title = "Sandbox state changed meanwhile"
		}
		return &problem{Status: l.Status, Title: title, Detail: l.Message}
	}
	return &problem{Status: http.StatusInternalServerError, Title: "Sandbox state", Detail: err.Error()}
}

// read answers an item's GET.
func (c *collections) read(r *http.Request, act *action, coll, id string) (*answer, *problem) {
	lv, err := c.api.Read(r.Context())
	if err != nil {
		return nil, stateProblem(err)
	}
	lv.mu.RLock()
	defer lv.mu.RUnlock()
	sc := lv.scopeFor(act.res, coll)
	e, gone := sc.lookup(id)
	if e == nil {
		return c.notFound(r, act, id, gone)
	}
	key := "read\x00" + act.op.ID + "\x00" + id + "\x00" + r.Header.Get("Accept")
	if a := sc.cached(key); a != nil {
		return a, nil
	}
	a, p := c.doc.itemAnswer(r, act, e.Item, http.StatusOK)
	if p == nil {
		sc.keep(key, a)
	}
	return a, p
}

// create answers a collection's POST: the item is made from the body (made-up values for what
// it leaves out, validated against the item's schema), given a new id (or the body's, when it
// is free), stored, and answered with a Location.
func (c *collections) create(r *http.Request, act *action, coll string, body []byte) (*answer, *problem) {
	in, p := c.doc.requestObject(r, act.op, body)
	if p != nil {
		return nil, p
	}
	lv, err := c.api.Get(r.Context())
	if err != nil {
		return nil, stateProblem(err)
	}
	lv.mu.Lock()
	defer lv.mu.Unlock()
	sc := lv.scope(act.res, coll)
	res := act.res
	id := ""
	if res.ID != "" {
		id = idText(in[res.ID])
	}
	var changes []state.Change
	if id != "" {
		if e := sc.items[id]; e != nil && !e.Deleted {
			return nil, &problem{Status: http.StatusConflict, Title: "Conflict",
				Detail: fmt.Sprintf("%s %s already holds an item with %s %s", res.Name, coll, res.ID, id),
				Errors: []fieldError{{In: "body", Name: "$." + res.ID, Problem: "an item with this id exists", Expected: "a new id, or none: the sandbox makes one"}}}
		}
	} else {
		var n int64
		id, n = c.doc.newID(res, sc, seedOf(r, coll))
		if n > 0 {
			changes = append(changes, state.Put(counterKey(res, coll), []byte(fmt.Sprint(n))))
		}
	}
	item, err := c.doc.makeItem(res, nil, in, id, seedOf(r, coll, id))
	if err != nil {
		return nil, unsatisfiableProblem(act.op, "item", "application/json", err)
	}
	e := &entry{Seq: nextSeq(lv, res), ID: id, Item: item}
	changes = append(changes, save(res, coll, e))
	if err := c.api.ApplyTo(r.Context(), lv, changes...); err != nil {
		return nil, stateProblem(err)
	}
	lv.seq = e.Seq
	sc.items[id] = e
	sc.changed()
	if n, ok := parseCounter(changes); ok {
		sc.next = n
	}
	code := act.op.successCode()
	a, p := c.doc.itemAnswer(r, act, item, statusOf(code))
	if p != nil {
		return nil, p
	}
	if res.Item != "" {
		a.header.Set("Location", lastSegment(coll)+"/"+id)
	}
	return a, nil
}

// change answers an item's PUT (replace: the body, with made-up values for what it leaves
// out) or PATCH (update: the body merged into the item, RFC 7386). A PUT to an unknown id
// creates the item when the collection has no other way to (no POST).
func (c *collections) change(r *http.Request, act *action, coll, id string, body []byte) (*answer, *problem) {
	in, p := c.doc.requestObject(r, act.op, body)
	if p != nil {
		return nil, p
	}
	lv, err := c.api.Get(r.Context())
	if err != nil {
		return nil, stateProblem(err)
	}
	item, status, deleted, p := c.changeLocked(r, act, lv, coll, id, in)
	if p != nil {
		return nil, p
	}
	if item == nil {
		return c.notFound(r, act, id, deleted)
	}
	return c.doc.itemAnswer(r, act, item, status)
}

// changeLocked makes and stores the changed item under the live state's lock: nil (and
// whether the session deleted it) when there is no such item to change.
func (c *collections) changeLocked(r *http.Request, act *action, lv *live, coll, id string, in map[string]any) (map[string]any, int, bool, *problem) {
	lv.mu.Lock()
	defer lv.mu.Unlock()
	sc := lv.scope(act.res, coll)
	old := sc.items[id]
	deleted := old != nil && old.Deleted
	if deleted {
		old = nil
	}
	upsert := old == nil && act.kind == "replace" && act.res.Operations["create"] == ""
	if old == nil && !upsert {
		return nil, 0, deleted, nil
	}
	var base map[string]any
	if act.kind == "update" {
		base = old.Item
	}
	item, err := c.doc.makeItem(act.res, base, in, id, seedOf(r, coll, id))
	if err != nil {
		return nil, 0, false, unsatisfiableProblem(act.op, "item", "application/json", err)
	}
	e := &entry{Seq: nextSeq(lv, act.res), ID: id, Item: item}
	if old != nil {
		e.Seq = old.Seq
	}
	if err := c.api.ApplyTo(r.Context(), lv, save(act.res, coll, e)); err != nil {
		return nil, 0, false, stateProblem(err)
	}
	lv.seq = max(lv.seq, e.Seq)
	sc.items[id] = e
	sc.changed()
	status := statusOf(act.op.successCode())
	if upsert && act.op.response("201") != nil {
		status = http.StatusCreated
	}
	return item, status, false, nil
}

// remove answers an item's DELETE: the item is gone from the session's collection.
func (c *collections) remove(r *http.Request, act *action, coll, id string) (*answer, *problem) {
	lv, err := c.api.Get(r.Context())
	if err != nil {
		return nil, stateProblem(err)
	}
	item, deleted, p := c.removeLocked(r, act, lv, coll, id)
	if p != nil {
		return nil, p
	}
	if item == nil {
		return c.notFound(r, act, id, deleted)
	}
	return c.doc.itemAnswer(r, act, item, statusOf(act.op.successCode()))
}

// removeLocked stores a tombstone for the item under the live state's lock, and returns the
// item removed: nil (and whether the session had deleted it) when there is none.
func (c *collections) removeLocked(r *http.Request, act *action, lv *live, coll, id string) (map[string]any, bool, *problem) {
	lv.mu.Lock()
	defer lv.mu.Unlock()
	sc := lv.scope(act.res, coll)
	old := sc.items[id]
	if old == nil || old.Deleted {
		return nil, old != nil, nil
	}
	e := &entry{Seq: old.Seq, ID: id, Deleted: true}
	if err := c.api.ApplyTo(r.Context(), lv, save(act.res, coll, e)); err != nil {
		return nil, false, stateProblem(err)
	}
	sc.items[id] = e
	sc.changed()
	return old.Item, false, nil
}

// notFound answers an id the session's collection does not hold: the operation's documented
// 404 (or 4XX, or default) with 404, else — for an id the session never deleted — what the
// document alone answers (the inference's notes say so), else a 404 problem.
func (c *collections) notFound(r *http.Request, act *action, id string, deleted bool) (*answer, *problem) {
	o := act.op
	for _, code := range []string{"404", "4XX", "4xx", "default"} {
		if o.response(code) == nil {
			continue
		}
		media, p := o.pickMedia(r, code)
		if p != nil {
			return nil, p
		}
		return c.doc.render(o, http.StatusNotFound, reply{code: code, media: media}, seedOf(r, "404"))
	}
	if !deleted {
		return c.doc.stateless(o, r)
	}
	return nil, &problem{Status: http.StatusNotFound, Title: "Not Found",
		Detail: fmt.Sprintf("%s %s was deleted in this sandbox session (the document documents no 404 for %s)", act.res.Name, id, o.ID)}
}

// nextSeq is the creation sequence of a new item: after every item the session made and
// every seeded one, so a list shows it last.
func nextSeq(lv *live, res *Resource) int64 { return max(lv.seq, int64(len(res.seedItems()))) + 1 }

// lastSegment is a path's last segment: a Location relative to the collection's own URL.
func lastSegment(p string) string { return p[strings.LastIndex(p, "/")+1:] }

// parseCounter finds the id counter among changes.
func parseCounter(changes []state.Change) (int64, bool) {
	for _, ch := range changes {
		if strings.HasPrefix(ch.Key, "n\x00") {
			var n int64
			if json.Unmarshal(ch.Value, &n) == nil {
				return n, true
			}
		}
	}
	return 0, false
}
