package pagination

import (
	"cmp"
	"net/url"
	"slices"
	"strings"

	"loupe/server/sandbox/drf"
)

// orderingParam is the query parameter of DRF's OrderingFilter on the page
// number and limit/offset lists: ordering_fields id and created, default id.
const orderingParam = "ordering"

// orderingFields are the fields a client may order by.
var orderingFields = []string{"id", "created"}

// ordered returns the items in the order the request's ordering asks for,
// like OrderingFilter: comma-separated fields, "-" for descending; unknown
// fields are dropped, and without a valid one the order is by id.
func ordered(st *store, q url.Values) []Item {
	byID, _ := st.snapshot()
	raw, _ := drf.LastValue(q, orderingParam)
	var terms []string
	for _, t := range strings.Split(raw, ",") {
		t = strings.TrimSpace(t)
		if slices.Contains(orderingFields, strings.TrimPrefix(t, "-")) {
			terms = append(terms, t)
		}
	}
	if len(terms) == 0 || (len(terms) == 1 && terms[0] == "id") {
		return byID
	}
	out := slices.Clone(byID)
	slices.SortStableFunc(out, func(a, b Item) int {
		for _, t := range terms {
			c := 0
			switch strings.TrimPrefix(t, "-") {
			case "id":
				c = cmp.Compare(a.ID, b.ID)
			case "created":
				c = a.Created.Compare(b.Created)
			}
			if strings.HasPrefix(t, "-") {
				c = -c
			}
			if c != 0 {
				return c
			}
		}
		return 0
	})
	return out
}
