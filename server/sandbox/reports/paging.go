package reports

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// cursor is a position in the newest-first order: a page token means "the records after
// this one", so a token stays valid while the dataset is unchanged and the filters are kept.
type cursor struct {
	micros int64 // id.time of the last record of the previous page, in Unix microseconds
	uq     int64 // its unique qualifier
}

// encodeToken writes the token of the position after r, in the real API's form
// A:<microseconds>:<uniqueQualifier>:<application>:<customer>.
func encodeToken(r *record, app string) string {
	return fmt.Sprintf("A:%d:%d:%s:%s", r.at.UnixMicro(), r.uq, app, customerID)
}

// decodeToken reads a page token of application app; ok is false when it is malformed or of
// another application or customer.
func decodeToken(tok, app string) (c cursor, ok bool) {
	parts := strings.Split(tok, ":")
	if len(parts) != 5 || parts[0] != "A" || parts[3] != app || parts[4] != customerID {
		return cursor{}, false
	}
	var err1, err2 error
	c.micros, err1 = strconv.ParseInt(parts[1], 10, 64)
	c.uq, err2 = strconv.ParseInt(parts[2], 10, 64)
	if err1 != nil || err2 != nil || c.micros < 0 {
		return cursor{}, false
	}
	return c, true
}

// before reports whether r comes after the cursor in the newest-first order.
func (c cursor) before(r *record) bool {
	return compareNewestFirst(time.UnixMicro(c.micros), c.uq, r.at, r.uq) < 0
}

// page returns up to q.max matching records after q's position, and the next page's token
// when more match.
func (h *handler) page(q *query) activities {
	out := activities{Kind: kindActivities, Etag: datasetETag, Items: []activity{}}
	var last *record
	for i := range h.records {
		r := &h.records[i]
		if (q.after != nil && !q.after.before(r)) || !q.keep(r) {
			continue
		}
		if len(out.Items) == q.max {
			out.NextPageToken = encodeToken(last, q.app)
			break
		}
		out.Items = append(out.Items, r.act)
		last = r
	}
	return out
}
