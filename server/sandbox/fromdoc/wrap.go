package fromdoc

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"github.com/pb33f/libopenapi/datamodel/high/base"
)

// wrappers caches the wrapper objects around items and lists (made once per operation
// response, with the operation's own seed), by operation, code and media type.
type wrappers struct{ m sync.Map }

// wrapper returns the wrapper object of an operation's response, made once.
func (d *Document) wrapper(o *operation, code, media string) (map[string]any, error) {
	key := o.Method + " " + o.Path + " " + code + " " + media
	if w, ok := d.wraps.m.Load(key); ok {
		return w.(map[string]any), nil
	}
	raw, at, sp := d.bodySchema(o, code, media)
	v, err := d.makeValue(raw, at, sp, hashString(key), Response)
	if err != nil {
		return nil, err
	}
	w := obj(v)
	if w == nil {
		return nil, &unsatisfiable{Schema: at, Msg: "the answer is not an object"}
	}
	d.wraps.m.Store(key, w)
	return w, nil
}

// wrap places v (an item, or a list of items) where the operation's answer holds it: the
// answer itself when path is "", else the wrapper's property path (adjust then sets the
// wrapper's other properties). When the document describes the answer's items differently
// from the stored item (a list of summaries, a create answer of its own), each item is
// projected onto the answer's schema: a value made from it, with the item's properties that
// it allows. The whole answer is checked; one that still breaks its schema is a 500 problem
// naming what broke, never an invalid body.
func (d *Document) wrap(r *http.Request, o *operation, code, media, path string, v any, list bool, adjust func(map[string]any)) (any, *problem) {
	raw, at, sp := d.bodySchema(o, code, media)
	build := func(val any) (any, error) {
		if path == "" {
			return val, nil
		}
		w, err := d.wrapper(o, code, media)
		if err != nil {
			return nil, err
		}
		wm := deepCopy(w).(map[string]any)
		wm[path] = val
		if adjust != nil {
			adjust(wm)
		}
		return wm, nil
	}
	out, err := build(v)
	if err != nil {
		return nil, unsatisfiableProblem(o, code, media, err)
	}
	cerr := d.checks.checkValue(sp, out)
	if cerr == nil || errors.Is(cerr, errUncheckable) {
		return out, nil
	}
	eraw, eat, esp := d.element(raw, at, sp, path, list)
	seed := hashString(o.ID + code + media) // the same item is projected the same way
	if list {
		items := v.([]any)
		projected := make([]any, len(items))
		for i, it := range items {
			projected[i] = d.project(eraw, eat, esp, obj(it), seed+uint64(i))
		}
		out, err = build(projected)
	} else {
		out, err = build(d.project(eraw, eat, esp, obj(v), seed))
	}
	if err != nil {
		return nil, unsatisfiableProblem(o, code, media, err)
	}
	if cerr = d.checks.checkValue(sp, out); cerr == nil || errors.Is(cerr, errUncheckable) {
		return out, nil
	}
	return nil, &problem{Status: http.StatusInternalServerError, Title: "Answer does not fit the document",
		Detail: fmt.Sprintf("The sandbox's stored items do not fit the %s %s response of %s (schema %s): %v. Tell the sandbox what the items are with x-loupe-sandbox, or fix the schema.", code, media, o.ID, at, cerr)}
}

// element returns the schema of what wrap places: the property at path of the answer's
// schema, and for a list its items.
func (d *Document) element(raw any, at string, sp *base.SchemaProxy, path string, list bool) (any, string, *base.SchemaProxy) {
	g := newGen(d.root, 0, Response, Choices{})
	for _, s := range splitPath(path) {
		f, fat, err := g.flatten(raw, at)
		if err != nil {
			return nil, at, nil
		}
		raw, at, sp = obj(f["properties"])[s], fat, property(sp, s)
	}
	if list {
		f, fat, err := g.flatten(raw, at)
		if err != nil {
			return nil, at, nil
		}
		raw, at, sp = f["items"], fat, itemsOf(sp)
	}
	if ref := str(obj(raw), "$ref"); ref != "" {
		at = ref
	}
	return raw, at, sp
}

// project makes a value of a schema from an item: the item itself when it validates, else a
// value made from the schema with each of the item's properties the schema keeps.
func (d *Document) project(raw any, at string, sp *base.SchemaProxy, item map[string]any, seed uint64) any {
	if raw == nil || item == nil {
		return item
	}
	if err := d.checks.checkValue(sp, item); err == nil {
		return item
	}
	base, err := d.makeValue(raw, at, sp, seed, Response)
	bm := obj(base)
	if err != nil || bm == nil {
		return item
	}
	out := deepCopy(bm).(map[string]any)
	for k, v := range item {
		out[k] = deepCopy(v)
	}
	for range 6 {
		fs := d.checks.failures(sp, out)
		if len(fs) == 0 {
			return out
		}
		changed := false
		for _, f := range fs {
			top := strings.SplitN(strings.TrimPrefix(f.path, "$."), ".", 2)[0]
			if top == "$" || top == "" {
				for k := range out { // a property the schema does not allow: keep only the made ones
					if _, made := bm[k]; !made {
						delete(out, k)
						changed = true
					}
				}
				continue
			}
			if orig, ok := bm[top]; ok {
				if !equalJSON(out[top], orig) {
					out[top] = deepCopy(orig)
					changed = true
				}
			} else if _, ok := out[top]; ok {
				delete(out, top)
				changed = true
			}
		}
		if !changed {
			break
		}
	}
	return bm
}
