package pagination

import (
	"fmt"
	"time"
)

// DefaultCount is the number of items in the documented dataset.
const DefaultCount = 95

// firstCreated is the creation time of item 1; item n was created n-1 days later.
var firstCreated = time.Date(2026, time.January, 1, 10, 0, 0, 0, time.UTC)

// Item is one item of the demo dataset, as the API returns it.
type Item struct {
	// ID is unique; page-number and limit/offset lists are ordered by it.
	ID int `json:"id"`
	// Name is the display name, "Item <id>".
	Name string `json:"name"`
	// Created is the creation time (UTC), unique per item; the cursor list
	// orders by it, newest first.
	Created time.Time `json:"created"`
}

// DefaultItems returns the documented dataset: items 1 to 95, item n named
// "Item n" and created at 10:00 UTC on day n of 2026 (item 11 on 2026-01-11,
// item 95 on 2026-04-05), the values the YAML's examples show.
func DefaultItems() []Item {
	return MakeItems(DefaultCount)
}

// MakeItems returns n items shaped like DefaultItems: IDs 1..n, one day apart.
func MakeItems(n int) []Item {
	out := make([]Item, n)
	for i := range out {
		id := i + 1
		out[i] = Item{ID: id, Name: fmt.Sprintf("Item %d", id), Created: firstCreated.AddDate(0, 0, i)}
	}
	return out
}
