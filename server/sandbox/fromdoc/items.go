package fromdoc

import (
	"encoding/json"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// newID makes the id of a new item: the collection's next number for an integer id, else a
// value made from the id's schema (a uuid for format: uuid) that no item holds yet. n is the
// new counter to store (0: none).
func (d *Document) newID(res *Resource, sc *scope, seed uint64) (string, int64) {
	if res.IDType == "integer" {
		next := sc.next
		for sc.items[strconv.FormatInt(next, 10)] != nil {
			next++
		}
		return strconv.FormatInt(next, 10), next + 1
	}
	var schema any = map[string]any{"type": "string"}
	at := res.item.at
	plainID := func(s any) bool { // a string with no format, pattern, enum or length rule
		f, _, err := newGen(d.root, 0, Response, Choices{}).flatten(s, at)
		return err == nil && impliedKind(f) == "string" && f["format"] == nil && f["pattern"] == nil && f["enum"] == nil &&
			f["const"] == nil && f["maxLength"] == nil && f["minLength"] == nil
	}
	if res.ID != "" {
		if f, _, err := newGen(d.root, 0, Response, Choices{}).flatten(res.item.raw, at); err == nil {
			schema = obj(f["properties"])[res.ID]
		}
	} else {
		schema = d.paramSchema(res)
	}
	if plainID(schema) { // a readable id: pet-4
		next := sc.next
		for sc.items[singular(res.Name)+"-"+strconv.FormatInt(next, 10)] != nil {
			next++
		}
		return singular(res.Name) + "-" + strconv.FormatInt(next, 10), next + 1
	}
	for try := uint64(0); try < 16; try++ {
		g := newGen(d.root, seed+try, Response, Choices{})
		g.path = []string{res.ID}
		v, err := g.value(schema, at)
		if id := idText(v); err == nil && id != "" && sc.items[id] == nil && !strings.ContainsAny(id, "/?#") {
			return id, 0
		}
	}
	return uuidFrom(seed, seed*31+7), 0 // the schema allows few ids: fall back to a uuid
}

// makeItem makes an item: base (nil: one made from the item's schema) with the request's
// properties on top (RFC 7386 merge: null removes an optional property), and its id. A
// property of the request the item's schema refuses is left out, so what is stored is
// always a valid item.
func (d *Document) makeItem(res *Resource, base, in map[string]any, id string, seed uint64) (map[string]any, error) {
	if base == nil {
		v, err := d.makeValue(res.item.raw, res.item.at, res.item.sp, seed, Response)
		if err != nil {
			return nil, err
		}
		base = obj(v)
		if base == nil {
			return nil, &unsatisfiable{Schema: res.item.at, Msg: "an item is not an object"}
		}
	}
	item := deepCopy(base).(map[string]any)
	for k, v := range in {
		if v == nil {
			delete(item, k)
		} else if old, ok := item[k].(map[string]any); ok && obj(v) != nil && base != nil {
			item[k] = mergePatch(old, obj(v))
		} else {
			item[k] = deepCopy(v)
		}
	}
	if res.ID != "" {
		item[res.ID] = d.idValue(res, id)
	}
	for range 4 {
		fs := d.checks.failures(res.item.sp, item)
		if len(fs) == 0 {
			return item, nil
		}
		dropped := false
		if res.ID != "" && slices.ContainsFunc(fs, func(f failure) bool { return strings.Contains(f.reason, "'"+res.ID+"'") }) {
			delete(item, res.ID) // the item's schema has no room for the id: it is in the path only
			dropped = true
		}
		for _, f := range fs {
			top := strings.SplitN(strings.TrimPrefix(f.path, "$."), ".", 2)[0]
			if _, given := in[top]; given && top != res.ID && top != "$" {
				if orig, ok := base[top]; ok {
					item[top] = deepCopy(orig)
				} else {
					delete(item, top)
				}
				dropped = true
			}
		}
		if !dropped {
			return nil, &unsatisfiable{Schema: res.item.at, Msg: "the item does not validate: " + fs[0].path + ": " + fs[0].reason}
		}
	}
	return item, nil
}

// idValue is an id as the item holds it: a number for an integer id.
func (d *Document) idValue(res *Resource, id string) any {
	if res.IDType == "integer" {
		if n, err := strconv.ParseInt(id, 10, 64); err == nil {
			return n
		}
	}
	return id
}

// mergePatch applies an RFC 7386 merge patch to a copy of an object.
func mergePatch(target, patch map[string]any) map[string]any {
	out := deepCopy(target).(map[string]any)
	for k, v := range patch {
		switch {
		case v == nil:
			delete(out, k)
		case obj(v) != nil && obj(out[k]) != nil:
			out[k] = mergePatch(obj(out[k]), obj(v))
		default:
			out[k] = deepCopy(v)
		}
	}
	return out
}

// deepCopy copies plain JSON values.
func deepCopy(v any) any {
	switch t := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(t))
		for k, x := range t {
			m[k] = deepCopy(x)
		}
		return m
	case []any:
		l := make([]any, len(t))
		for i, x := range t {
			l[i] = deepCopy(x)
		}
		return l
	}
	return v
}

// requestObject reads a request body as an object: JSON, a form, or multipart. An empty
// body is an empty object.
func (d *Document) requestObject(r *http.Request, o *operation, body []byte) (map[string]any, *problem) {
	if len(body) == 0 {
		return map[string]any{}, nil
	}
	mt, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	bad := func(err error) *problem {
		return &problem{Status: http.StatusBadRequest, Detail: "the request body cannot be read: " + err.Error(),
			Errors: []fieldError{{In: "body", Name: "$", Problem: err.Error(), Expected: "an object"}}}
	}
	switch {
	case mt == "application/x-www-form-urlencoded":
		q, err := url.ParseQuery(string(body))
		if err != nil {
			return nil, bad(err)
		}
		out := map[string]any{}
		for k, vs := range q {
			out[k] = vs[0]
			if len(vs) > 1 {
				l := make([]any, len(vs))
				for i, v := range vs {
					l[i] = v
				}
				out[k] = l
			}
		}
		return out, nil
	case mt == "multipart/form-data":
		var schema = o.model.RequestBody.Content.GetOrZero(mt)
		if schema == nil || schema.Schema == nil {
			return map[string]any{}, nil
		}
		out, err := decodeMultipart(body, params["boundary"], schema.Schema.Schema())
		if err != nil {
			return nil, bad(err)
		}
		return out, nil
	case isJSON(mt) || mt == "":
		var v any
		if err := json.Unmarshal(body, &v); err != nil {
			return nil, bad(err)
		}
		m, _ := v.(map[string]any)
		if m == nil {
			m = map[string]any{} // a body the document allows that is no object: the item is made from its schema
		}
		return m, nil
	}
	return map[string]any{}, nil // another type (XML, bytes): the item is made from its schema
}

// itemAnswer answers an item operation with item, placed where the operation's answer holds
// it, with status; a media type other than JSON is answered from the document alone.
func (d *Document) itemAnswer(r *http.Request, act *action, item map[string]any, status int) (*answer, *problem) {
	o := act.op
	code := o.successCode()
	media, p := o.pickMedia(r, code)
	if p != nil {
		return nil, p
	}
	if media == "" || !isJSON(media) {
		return d.render(o, status, reply{code: code, media: media}, seedOf(r, code, media))
	}
	v, p := d.wrap(r, o, code, media, act.res.Wrapper[act.kind], item, false, nil)
	if p != nil {
		return nil, p
	}
	return d.render(o, status, reply{code: code, media: media, value: v, set: true}, seedOf(r, code, media))
}
