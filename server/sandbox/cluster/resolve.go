package cluster

import (
	"slices"
	"strings"
)

// wildcardStates is what wildcard expressions expand to (expand_wildcards).
type wildcardStates struct {
	open, closed, hidden bool
}

// allStates is the default of cluster health: open, closed and hidden.
var allStates = wildcardStates{open: true, closed: true, hidden: true}

// parseExpandWildcards reads expand_wildcards, a comma-separated list of all,
// open, closed, hidden and none (none clears what came before, all sets
// everything), as OpenSearch's WildcardStates.parseParameter.
func parseExpandWildcards(v string) (wildcardStates, *osError) {
	var st wildcardStates
	for w := range strings.SplitSeq(v, ",") {
		switch strings.TrimSpace(w) {
		case "":
		case "open":
			st.open = true
		case "closed":
			st.closed = true
		case "hidden":
			st.hidden = true
		case "none":
			st = wildcardStates{}
		case "all":
			st = allStates
		default:
			return st, illegalArgument("No valid expand wildcard value [%s]", strings.TrimSpace(w))
		}
	}
	return st, nil
}

// resolution is what an index expression list stands for.
type resolution struct {
	names   []string // concrete indices, in first-match order, without repeats
	missing []string // concrete expressions naming nothing
}

// resolve expands the comma-separated expressions of the {index} path
// segment: index, data stream and alias names, wildcards (*) and _all, and
// exclusions (-pattern, after the first expression). A data stream or an
// alias stands for its indices.
func (c *simCluster) resolve(exprs []string, st wildcardStates) resolution {
	var res resolution
	add := func(names ...string) {
		for _, n := range names {
			if !slices.Contains(res.names, n) {
				res.names = append(res.names, n)
			}
		}
	}
	for i, e := range exprs {
		if i > 0 && strings.HasPrefix(e, "-") && len(e) > 1 {
			pat := e[1:]
			res.names = slices.DeleteFunc(res.names, func(n string) bool { return globMatch(pat, n) })
			continue
		}
		if e == "_all" {
			e = "*"
		}
		if !strings.Contains(e, "*") {
			switch {
			case c.byName[e] != nil:
				add(e)
			case len(c.members(e)) > 0:
				add(c.members(e)...)
			default:
				res.missing = append(res.missing, e)
			}
			continue
		}
		add(c.expand(e, st)...)
	}
	return res
}

// expand lists the indices a wildcard pattern reaches under st.
func (c *simCluster) expand(pat string, st wildcardStates) []string {
	var out []string
	stateOK := func(ix *indexState) bool {
		return (ix.Closed && st.closed) || (!ix.Closed && st.open)
	}
	for _, ix := range c.indices {
		if globMatch(pat, ix.Name) && stateOK(ix) && (!ix.Hidden || st.hidden || dotHidden(pat, ix.Name)) {
			out = append(out, ix.Name)
		}
	}
	for _, group := range [][]string{c.dataStreams(), c.aliases()} {
		for _, g := range group {
			if !globMatch(pat, g) {
				continue
			}
			for _, m := range c.members(g) {
				if stateOK(c.byName[m]) {
					out = append(out, m)
				}
			}
		}
	}
	return out
}

// globMatch matches name against a pattern whose only wildcard is *, as
// OpenSearch's Regex.simpleMatch.
func globMatch(pat, name string) bool {
	parts := strings.Split(pat, "*")
	if len(parts) == 1 {
		return pat == name
	}
	if !strings.HasPrefix(name, parts[0]) {
		return false
	}
	name = name[len(parts[0]):]
	last := parts[len(parts)-1]
	for _, p := range parts[1 : len(parts)-1] {
		i := strings.Index(name, p)
		if i < 0 {
			return false
		}
		name = name[i+len(p):]
	}
	return len(name) >= len(last) && strings.HasSuffix(name, last)
}

// splitIndices splits the {index} segment on commas, trimming blanks and
// dropping empty items, as OpenSearch's splitStringByCommaToArray.
func splitIndices(s string) []string {
	var out []string
	for p := range strings.SplitSeq(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
