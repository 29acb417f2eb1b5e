package cluster

import (
	"slices"
	"strings"
	"time"
)

// Task priorities, most urgent first, as OpenSearch's Priority.
const (
	immediate = iota
	urgent
	high
	normal
	low
	languid
)

// priorityNames are the wait_for_events values, in priority order.
var priorityNames = []string{"IMMEDIATE", "URGENT", "HIGH", "NORMAL", "LOW", "LANGUID"}

// parsePriority reads a wait_for_events value (any case).
func parsePriority(s string) (int, bool) {
	i := slices.Index(priorityNames, strings.ToUpper(s))
	return i, i >= 0
}

// task is one pending cluster-state update.
type task struct {
	priority int
	source   string // what queued it: node-left, shard-started, create-index...
	queued   time.Time
	seq      int
}

// taskQueue is the cluster manager's queue of pending tasks: one is
// processed at a time, the most urgent first, then in arrival order, each
// taking the task time.
type taskQueue struct {
	pending  []task
	seq      int
	headDone time.Time // when the task being processed finishes; zero when idle
}

// add queues a task at now; an idle queue starts processing it.
func (q *taskQueue) add(priority int, source string, now time.Time, took time.Duration) {
	q.seq++
	q.pending = append(q.pending, task{priority: priority, source: source, queued: now, seq: q.seq})
	slices.SortStableFunc(q.pending, func(a, b task) int {
		if a.priority != b.priority {
			return a.priority - b.priority
		}
		return a.seq - b.seq
	})
	if q.headDone.IsZero() {
		q.headDone = now.Add(took)
	}
}

// process removes the tasks finished by now.
func (q *taskQueue) process(now time.Time, took time.Duration) {
	for len(q.pending) > 0 && !q.headDone.After(now) {
		q.pending = q.pending[1:]
		if len(q.pending) == 0 {
			q.headDone = time.Time{}
			break
		}
		q.headDone = q.headDone.Add(took)
	}
}

// maxWaiting is how long the oldest pending task has waited.
func (q *taskQueue) maxWaiting(now time.Time) time.Duration {
	var oldest time.Time
	for _, t := range q.pending {
		if oldest.IsZero() || t.queued.Before(oldest) {
			oldest = t.queued
		}
	}
	if oldest.IsZero() {
		return 0
	}
	return now.Sub(oldest)
}

// pendingAtLeast reports whether a task at least as urgent as priority is
// pending: what a wait_for_events of that priority waits out.
func (q *taskQueue) pendingAtLeast(priority int) bool {
	return slices.ContainsFunc(q.pending, func(t task) bool { return t.priority <= priority })
}
