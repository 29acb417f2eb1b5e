package script

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"time"
)

// processJSON is the Process resource.
type processJSON struct {
	ProjectName     string `json:"projectName,omitempty"`
	FunctionName    string `json:"functionName,omitempty"`
	ProcessType     string `json:"processType,omitempty"`
	ProcessStatus   string `json:"processStatus,omitempty"`
	UserAccessLevel string `json:"userAccessLevel,omitempty"`
	StartTime       string `json:"startTime,omitempty"`
	Duration        string `json:"duration,omitempty"`
	RuntimeVersion  string `json:"runtimeVersion,omitempty"`
}

// listProcessesResponse is one page of processes (both list operations).
type listProcessesResponse struct {
	Processes     []processJSON `json:"processes,omitempty"`
	NextPageToken string        `json:"nextPageToken,omitempty"`
}

// The enums a process filter accepts.
var (
	processStatuses = []string{"PROCESS_STATUS_UNSPECIFIED", "RUNNING", "PAUSED", "COMPLETED", "CANCELED", "FAILED", "TIMED_OUT", "UNKNOWN", "DELAYED", "EXECUTION_DISABLED"}
	processTypes    = []string{"PROCESS_TYPE_UNSPECIFIED", "ADD_ON", "EXECUTION_API", "TIME_DRIVEN", "TRIGGER", "WEBAPP", "EDITOR", "SIMPLE_TRIGGER", "MENU", "BATCH_TASK"}
	accessLevels    = []string{"USER_ACCESS_LEVEL_UNSPECIFIED", "NONE", "READ", "WRITE", "OWNER"}
)

// processFilter narrows a process list; empty fields match everything.
type processFilter struct {
	scriptID, deploymentID, projectName, functionName string
	start, end                                        time.Time
	statuses, types, levels                           []string
}

// parseFilter reads the filter parameters named prefix+"."+field.
func parseFilter(q url.Values, prefix string) (processFilter, *apiError) {
	f := processFilter{
		deploymentID: q.Get(prefix + ".deploymentId"),
		projectName:  q.Get(prefix + ".projectName"),
		functionName: q.Get(prefix + ".functionName"),
		scriptID:     q.Get(prefix + ".scriptId"),
	}
	var e *apiError
	if f.start, e = parseTimeParam(q, prefix+".startTime"); e != nil {
		return f, e
	}
	if f.end, e = parseTimeParam(q, prefix+".endTime"); e != nil {
		return f, e
	}
	for _, p := range []struct {
		name string
		enum []string
		into *[]string
	}{{"statuses", processStatuses, &f.statuses}, {"types", processTypes, &f.types}, {"userAccessLevels", accessLevels, &f.levels}} {
		for i, v := range q[prefix+"."+p.name] {
			if !slices.Contains(p.enum, v) {
				return f, invalidValue(fmt.Sprintf("%s.%s[%d]", prefix, p.name, i), "TYPE_ENUM", v)
			}
			*p.into = append(*p.into, v)
		}
	}
	return f, nil
}

// parseTimeParam reads an RFC 3339 time parameter (zero when absent).
func parseTimeParam(q url.Values, name string) (time.Time, *apiError) {
	v := q.Get(name)
	if v == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		return time.Time{}, invalidValue(name, "type.googleapis.com/google.protobuf.Timestamp", v)
	}
	return t, nil
}

// match reports whether p passes the filter. A process still running has not ended, so an
// endTime filter excludes it.
func (f processFilter) match(p *process) bool {
	switch {
	case f.scriptID != "" && p.scriptID != f.scriptID,
		f.deploymentID != "" && p.deploymentID != f.deploymentID,
		f.projectName != "" && p.projectName != f.projectName,
		f.functionName != "" && p.functionName != f.functionName,
		!f.start.IsZero() && p.start.Before(f.start),
		!f.end.IsZero() && (p.status == "RUNNING" || p.start.Add(p.duration).After(f.end)),
		len(f.statuses) > 0 && !slices.Contains(f.statuses, p.status),
		len(f.types) > 0 && !slices.Contains(f.types, p.processType),
		len(f.levels) > 0 && !slices.Contains(f.levels, p.access):
		return false
	}
	return true
}

// listUserProcesses is processes.list: the caller's own processes across scripts.
func listUserProcesses(s *store, r *http.Request) (any, *apiError) {
	q := r.URL.Query()
	f, e := parseFilter(q, "userProcessFilter")
	if e != nil {
		return nil, e
	}
	return s.listProcesses(q, func(p *process) bool { return p.runBy == ada.Email && f.match(p) })
}

// listScriptProcesses is processes.listScriptProcesses: every process of one script.
func listScriptProcesses(s *store, r *http.Request) (any, *apiError) {
	q := r.URL.Query()
	f, e := parseFilter(q, "scriptProcessFilter")
	if e != nil {
		return nil, e
	}
	id := q.Get("scriptId")
	if id == "" {
		return nil, invalidArgument("scriptId", "The scriptId parameter is required.")
	}
	s.mu.Lock()
	_, e = s.project(id)
	s.mu.Unlock()
	if e != nil {
		return nil, e
	}
	f.scriptID = id
	return s.listProcesses(q, f.match)
}

// listProcesses pages through the processes that keep passes, most recent first.
func (s *store) listProcesses(q url.Values, keep func(*process) bool) (any, *apiError) {
	size, e := pageSize(q)
	if e != nil {
		return nil, e
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var all []*process
	for _, p := range s.processes {
		if keep(p) {
			all = append(all, p)
		}
	}
	slices.SortStableFunc(all, func(a, b *process) int { return b.start.Compare(a.start) })
	start := 0
	if tok := q.Get("pageToken"); tok != "" {
		key, _, ok := parseProcessToken(tok)
		i := slices.IndexFunc(all, func(p *process) bool { return p.key == key })
		if !ok || i < 0 {
			return nil, errBadToken(tok)
		}
		start = i + 1
	}
	items, more := page(all, start, size)
	var out listProcessesResponse
	for _, p := range items {
		out.Processes = append(out.Processes, processJSON{ProjectName: p.projectName, FunctionName: p.functionName,
			ProcessType: p.processType, ProcessStatus: p.status, UserAccessLevel: p.access,
			StartTime: fmtTime(p.start), Duration: fmtDuration(p.duration), RuntimeVersion: p.runtime})
	}
	if more {
		out.NextPageToken = processToken(items[len(items)-1].key, start+len(items))
	}
	return out, nil
}
