package script

import (
	"maps"
	"net/http"
	"slices"
	"strconv"
	"time"
)

// metricsJSON is the Metrics resource.
type metricsJSON struct {
	ActiveUsers      []metricsValue `json:"activeUsers,omitempty"`
	TotalExecutions  []metricsValue `json:"totalExecutions,omitempty"`
	FailedExecutions []metricsValue `json:"failedExecutions,omitempty"`
}

// metricsValue is the value of a metric over one period; the value is a uint64 as a string.
type metricsValue struct {
	StartTime string `json:"startTime"`
	EndTime   string `json:"endTime"`
	Value     string `json:"value"`
}

const day = 24 * time.Hour

// getMetrics is projects.getMetrics. DAILY covers the last 7 days (today included), WEEKLY the
// last 7 periods of 7 days, oldest first; UNSPECIFIED_GRANULARITY queries no metrics ({}).
// Periods without any execution are left out. Values are the seeded counts plus the runs of
// this sandbox; activeUsers of a week adds up its days.
func getMetrics(s *store, r *http.Request, id string) (any, *apiError) {
	q := r.URL.Query()
	g := q.Get("metricsGranularity")
	var span time.Duration
	switch g {
	case "DAILY":
		span = day
	case "WEEKLY":
		span = 7 * day
	case "UNSPECIFIED_GRANULARITY":
	case "":
		return nil, invalidArgument("metricsGranularity", "The metricsGranularity parameter is required: DAILY or WEEKLY.")
	default:
		return nil, invalidValue("metricsGranularity", "TYPE_ENUM", g)
	}
	dep := q.Get("metricsFilter.deploymentId")
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, e := s.project(id); e != nil {
		return nil, e
	}
	var out metricsJSON
	if span == 0 {
		return out, nil
	}
	end := s.now().UTC().Truncate(day).Add(day)
	for i := 6; i >= 0; i-- {
		from := end.Add(-time.Duration(i+1) * span)
		to := from.Add(span)
		users, total, failed := 0, 0, 0
		for _, b := range s.buckets {
			if b.scriptID != id || (dep != "" && b.deploymentID != dep) || b.day.Before(from) || !b.day.Before(to) {
				continue
			}
			users += b.users + len(b.emails)
			total += b.total
			failed += b.failed
		}
		if total == 0 {
			continue
		}
		v := func(n int) metricsValue {
			return metricsValue{StartTime: from.Format(timeSeconds), EndTime: to.Format(timeSeconds), Value: strconv.Itoa(n)}
		}
		out.ActiveUsers = append(out.ActiveUsers, v(users))
		out.TotalExecutions = append(out.TotalExecutions, v(total))
		out.FailedExecutions = append(out.FailedExecutions, v(failed))
	}
	return out, nil
}

// counted returns the bucket of the deployment's day (UTC) with one more execution by email,
// and its index in s.buckets (-1: a new bucket). It changes nothing.
func (s *store) counted(scriptID, deploymentID, email string, failed bool, when time.Time) (*bucket, int) {
	d := when.UTC().Truncate(day)
	i := slices.IndexFunc(s.buckets, func(b *bucket) bool {
		return b.scriptID == scriptID && b.deploymentID == deploymentID && b.day.Equal(d)
	})
	b := &bucket{scriptID: scriptID, deploymentID: deploymentID, day: d}
	if i >= 0 {
		*b = *s.buckets[i]
	}
	b.emails = maps.Clone(b.emails)
	if b.emails == nil {
		b.emails = map[string]bool{}
	}
	b.emails[email] = true
	b.total++
	if failed {
		b.failed++
	}
	return b, i
}
