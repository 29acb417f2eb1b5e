package fromdoc

import (
	"fmt"
	"strings"
)

// findID decides which item property holds the id, and how new ids are made: the path
// parameter's own name (petId), id, <singular>Id or <singular>_id, uuid, then any property
// ending in id. Its type (integer, a uuid string, another string) says how ids are made.
func (d *Document) findID(res *Resource) {
	g := newGen(d.root, 0, Response, Choices{})
	f, _, err := g.flatten(res.item.raw, res.item.at)
	if err != nil {
		return
	}
	props := obj(f["properties"])
	sing := singular(res.Name)
	if res.ID == "" {
		for _, name := range []string{res.Param, "id", sing + "Id", sing + "_id", sing + "ID", "uuid", "key", "name"} {
			if _, ok := props[name]; ok && name != "" && (name != "name" || res.Param == "name") && (name != "key" || res.Param == "key") {
				res.ID = name
				break
			}
		}
	}
	if res.ID == "" {
		for _, name := range keysOf(props) {
			if n := normalize(name); n == "id" || strings.HasSuffix(n, "id") {
				res.ID = name
				res.Notes = append(res.Notes, fmt.Sprintf("the id is taken to be %q, the first property whose name ends in id", name))
				break
			}
		}
	}
	var idSchema any
	if res.ID != "" {
		idSchema = props[res.ID]
	} else {
		res.Notes = append(res.Notes, "the items have no id property: an item's id is in its path only")
		idSchema = d.paramSchema(res)
	}
	res.IDType = "string"
	if is, _, err := g.flatten(idSchema, res.item.at); err == nil {
		switch {
		case impliedKind(is) == "integer" || impliedKind(is) == "number":
			res.IDType = "integer"
		case str(is, "format") == "uuid":
			res.IDType = "uuid"
		}
	}
}

// paramSchema returns the schema of the item path's parameter, as plain values.
func (d *Document) paramSchema(res *Resource) any {
	for _, o := range d.ops {
		if o.Path != res.Item {
			continue
		}
		for _, list := range [][]any{asList(o.raw["parameters"]), asList(o.rawItem["parameters"])} {
			for _, p := range list {
				pm, _, err := deref(d.root, p)
				if err == nil && str(obj(pm), "name") == res.Param && str(obj(pm), "in") == "path" {
					return obj(pm)["schema"]
				}
			}
		}
	}
	return map[string]any{"type": "string"}
}

// idOf returns an item's id as its path writes it ("" when it has none).
func (res *Resource) idOf(item map[string]any) string {
	if res.ID == "" {
		return ""
	}
	return idText(item[res.ID])
}

// idText writes an id value as a path segment holds it.
func idText(v any) string {
	switch t := v.(type) {
	case nil:
		return ""
	case string:
		return t
	case float64:
		if t == float64(int64(t)) {
			return fmt.Sprint(int64(t))
		}
	}
	return fmt.Sprint(v)
}
