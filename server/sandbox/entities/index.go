package entities

import (
	"sort"
	"strings"
)

// label is one searchable name or alias of an entity, folded.
type label struct {
	text  string   // folded full text
	words []string // its words
	lang  string   // language the label belongs to
	alias bool     // an alias rather than the name
}

// entry is an entity with its precomputed search keys.
type entry struct {
	rec    *Record
	id     string          // "/m/..." path
	labels []label         // names and aliases, all languages
	desc   map[string]bool // words of the descriptions, all languages
	types  map[string]bool // folded type names, including "thing"
}

// prefixKey points from a folded label to the entity it names.
type prefixKey struct {
	text string
	ent  int32
	lbl  int32
}

// index holds the dataset and the structures that keep search fast: a word
// index over names, aliases and descriptions, a sorted label list for prefix
// matching and an id map.
type index struct {
	entries  []entry
	byID     map[string]int32
	postings map[string][]int32 // word -> sorted entity numbers
	prefixes []prefixKey        // sorted by text
	license  string
}

// buildIndex precomputes the search structures for d.
func buildIndex(d *Dataset) *index {
	ix := &index{
		entries:  make([]entry, len(d.Entities)),
		byID:     make(map[string]int32, len(d.Entities)),
		postings: map[string][]int32{},
		license:  d.ArticleLicense,
	}
	if ix.license == "" {
		ix.license = DefaultArticleLicense
	}
	for i := range d.Entities {
		r := &d.Entities[i]
		n := int32(i)
		e := entry{rec: r, id: r.ID, desc: map[string]bool{}, types: map[string]bool{"thing": true}}
		for _, t := range r.Types {
			e.types[strings.ToLower(t)] = true
		}
		add := func(text, lang string, alias bool) {
			f := fold(text)
			for _, l := range e.labels {
				if l.text == f && l.lang == lang {
					return
				}
			}
			e.labels = append(e.labels, label{text: f, words: words(f), lang: lang, alias: alias})
		}
		for _, lang := range sortedKeys(r.Name) {
			add(r.Name[lang], lang, false)
		}
		for _, lang := range sortedKeys(r.Alias) {
			for _, a := range r.Alias[lang] {
				add(a, lang, true)
			}
		}
		seen := map[string]bool{}
		post := func(w string) {
			if !seen[w] {
				seen[w] = true
				ix.postings[w] = append(ix.postings[w], n)
			}
		}
		for li, l := range e.labels {
			for _, w := range l.words {
				post(w)
			}
			ix.prefixes = append(ix.prefixes, prefixKey{text: l.text, ent: n, lbl: int32(li)})
		}
		for _, d := range r.Description {
			for _, w := range words(fold(d)) {
				e.desc[w] = true
				post(w)
			}
		}
		ix.entries[i] = e
		ix.byID[r.ID] = n
	}
	sort.Slice(ix.prefixes, func(i, j int) bool { return ix.prefixes[i].text < ix.prefixes[j].text })
	return ix
}

// candidates returns the entities whose names, aliases or descriptions hold
// every word of ws, in entity order.
func (ix *index) candidates(ws []string) []int32 {
	if len(ws) == 0 {
		return nil
	}
	lists := make([][]int32, len(ws))
	for i, w := range ws {
		lists[i] = ix.postings[w]
		if len(lists[i]) == 0 {
			return nil
		}
	}
	sort.Slice(lists, func(i, j int) bool { return len(lists[i]) < len(lists[j]) })
	out := append([]int32(nil), lists[0]...)
	for _, l := range lists[1:] {
		out = intersect(out, l)
	}
	return out
}

// withPrefix calls fn for every label that starts with p.
func (ix *index) withPrefix(p string, fn func(ent, lbl int32)) {
	i := sort.Search(len(ix.prefixes), func(i int) bool { return ix.prefixes[i].text >= p })
	for ; i < len(ix.prefixes) && strings.HasPrefix(ix.prefixes[i].text, p); i++ {
		fn(ix.prefixes[i].ent, ix.prefixes[i].lbl)
	}
}

func intersect(a, b []int32) []int32 {
	out := a[:0]
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] == b[j]:
			out = append(out, a[i])
			i++
			j++
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	// English first, so an English label wins a tie.
	for i, k := range ks {
		if k == "en" {
			copy(ks[1:i+1], ks[:i])
			ks[0] = "en"
		}
	}
	return ks
}
