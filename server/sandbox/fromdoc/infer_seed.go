package fromdoc

import (
	"errors"
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
		if err := d.checks.checkValue(res.item.sp, item); err != nil && !errors.Is(err, errUncheckable) {
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
	if len(res.seeds) == 0 {
		d.madeSeed(res)
	} else {
		res.SeedFrom = "examples"
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

// madeSeed fills a collection the document gives no example item of with three items made
// from the item's schema (ids 1, 2, 3 for an integer id), so that a list shows what an item
// looks like. Reset comes back to them.
func (d *Document) madeSeed(res *Resource) {
	sc := &scope{items: map[string]*entry{}, next: 1}
	for i := range 3 {
		seed := hashString(res.Collection) + uint64(i)
		id, n := d.newID(res, sc, seed)
		if n > 0 {
			sc.next = n
		}
		item, err := d.makeItem(res, nil, map[string]any{}, id, seed)
		if err != nil {
			res.Notes = append(res.Notes, "no item could be made for the seed: "+err.Error())
			return
		}
		sc.items[id] = &entry{ID: id}
		res.seeds = append(res.seeds, item)
	}
	res.SeedFrom = "made from the item's schema (the document has no example item)"
}
