package fromdoc

import (
	"fmt"
)

// seed collects the collection's first items from the document's examples: the list's
// answer, the item's and the create answer's, each where the items sit. An example item that
// has no id or breaks the item's schema is left out, with a note.
func (d *Document) seed(res *Resource, acts map[string]*operation) {
	seen := map[string]bool{}
	dropped := 0
	addItem := func(v any) {
		item := obj(v)
		if item == nil {
			return
		}
		id := res.idOf(item)
		if res.ID != "" && id == "" {
			dropped++
			return
		}
		if id != "" && seen[id] {
			return
		}
		if err := d.checks.checkValue(res.item.sp, item); err != nil && err != errUncheckable {
			dropped++
			return
		}
		seen[id] = true
		res.seeds = append(res.seeds, item)
	}
	for _, kind := range []string{"list", "read", "create", "replace"} {
		o := acts[kind]
		if o == nil {
			continue
		}
		code, media, ok := successJSON(o)
		if !ok {
			continue
		}
		ex, ok, _ := d.example(o, code, media, "")
		if !ok {
			continue
		}
		path, ok := d.locate(res, o, kind == "list")
		if !ok {
			continue
		}
		for _, s := range splitPath(path) {
			ex = obj(ex)[s]
		}
		if kind == "list" {
			for _, it := range asList(ex) {
				addItem(it)
			}
		} else {
			addItem(ex)
		}
		if res.Item == "" && kind == "list" {
			break
		}
	}
	if res.ID == "" && len(res.seeds) > 1 {
		res.seeds = res.seeds[:0] // items without ids cannot be told apart
	}
	res.Seed = len(res.seeds)
	if dropped > 0 {
		res.Notes = append(res.Notes, fmt.Sprintf("%d example item(s) left out of the seed: no %s, or they do not match the item's schema", dropped, orText(res.ID, "id")))
	}
}

func orText(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
