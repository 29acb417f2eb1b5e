package entities

import (
	"math"
	"sort"
	"strings"
)

// query is a parsed entities:search request.
type query struct {
	text      string   // the query parameter
	ids       []string // normalized "/m/..." paths
	types     []string // folded type names
	languages []string // ISO 639 codes, at least one
	prefix    bool
	limit     int
	indent    bool
}

// hit is one matched entity and its score.
type hit struct {
	ent   int32
	score float64
}

// Match factors: the share of an entity's popularity that becomes its
// resultScore for each kind of match.
const (
	exactName    = 1.0
	exactAlias   = 0.9
	startsName   = 0.45
	startsAlias  = 0.4
	wordsName    = 0.35
	wordsAlias   = 0.3
	descWords    = 0.1
	otherLangCut = 0.9 // applied when the matching label is not in a requested language
)

// search runs q against the index and returns hits ranked by score, at most q.limit.
func (ix *index) search(q *query) []hit {
	var hits []hit
	switch {
	case len(q.ids) > 0:
		for _, id := range q.ids {
			n, ok := ix.byID[id]
			if !ok || !ix.typeOK(n, q.types) {
				continue
			}
			f := 1.0
			if q.text != "" {
				if f = ix.factor(n, q); f == 0 {
					continue
				}
			}
			hits = append(hits, hit{ent: n, score: ix.score(n, f)})
		}
	case strings.TrimSpace(q.text) != "":
		hits = ix.textHits(q)
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].score > hits[j].score })
	if len(hits) > q.limit {
		hits = hits[:q.limit]
	}
	return hits
}

// textHits finds the entities matching q.text by words and, with q.prefix, by
// initial substring of a name or alias.
func (ix *index) textHits(q *query) []hit {
	ft := fold(strings.TrimSpace(q.text))
	best := map[int32]float64{}
	for _, n := range ix.candidates(words(ft)) {
		if f := ix.factor(n, q); f > 0 {
			best[n] = f
		}
	}
	if q.prefix {
		ix.withPrefix(ft, func(n, li int32) {
			l := ix.entries[n].labels[li]
			f := 0.3 + 0.3*float64(len(ft))/float64(len(l.text))
			if l.text == ft {
				f = exactName
				if l.alias {
					f = exactAlias
				}
			}
			f *= ix.langCut(l, q)
			if f > best[n] {
				best[n] = f
			}
		})
	}
	hits := make([]hit, 0, len(best))
	for n, f := range best {
		if ix.typeOK(n, q.types) {
			hits = append(hits, hit{ent: n, score: ix.score(n, f)})
		}
	}
	// Map order is random: sort by id first so equal scores rank stably.
	sort.Slice(hits, func(i, j int) bool { return ix.entries[hits[i].ent].id < ix.entries[hits[j].ent].id })
	return hits
}

// factor is the best match factor of entity n for q.text, 0 for no match.
func (ix *index) factor(n int32, q *query) float64 {
	ft := fold(strings.TrimSpace(q.text))
	qw := words(ft)
	e := &ix.entries[n]
	best := 0.0
	for _, l := range e.labels {
		f := 0.0
		switch {
		case l.text == ft:
			f = pick(l.alias, exactAlias, exactName)
		case containsAll(l.words, qw) && strings.HasPrefix(l.text, ft):
			f = pick(l.alias, startsAlias, startsName)
		case containsAll(l.words, qw):
			f = pick(l.alias, wordsAlias, wordsName)
		}
		if f *= ix.langCut(l, q); f > best {
			best = f
		}
	}
	if best == 0 && len(qw) > 0 {
		all := true
		for _, w := range qw {
			all = all && e.desc[w]
		}
		if all {
			best = descWords
		}
	}
	return best
}

func (ix *index) langCut(l label, q *query) float64 {
	for _, lang := range q.languages {
		if l.lang == lang {
			return 1
		}
	}
	return otherLangCut
}

// score turns a match factor into a resultScore with real-looking magnitude.
func (ix *index) score(n int32, f float64) float64 {
	return math.Round(ix.entries[n].rec.Popularity*f*1000) / 1000
}

func (ix *index) typeOK(n int32, types []string) bool {
	if len(types) == 0 {
		return true
	}
	for _, t := range types {
		if ix.entries[n].types[t] {
			return true
		}
	}
	return false
}

func containsAll(have, want []string) bool {
	for _, w := range want {
		found := false
		for _, h := range have {
			if h == w {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return len(want) > 0
}

func pick(alias bool, ifAlias, ifName float64) float64 {
	if alias {
		return ifAlias
	}
	return ifName
}
