package catalog

// The coverage tables: every endpoint and parameter the seeds list (seeds 000-002), and the
// fields of the seeds' types with their values, checked against the compiled real content.

import (
	"cmp"
	"encoding/json"
	"slices"
	"testing"

	"loupe/app/catalog"
)

// yes and no are for paramWant.repeatable.
var yes, no = new(true), new(false)

// paramWant is a parameter (or a top-level body field, in "body") a seed lists.
type paramWant struct {
	name, in   string   // in defaults to query
	typ        string   // schema type; "" when the seed allows several
	enum       []string // values that must be among the enum (of the items, for arrays)
	max        float64  // maximum, when the seed gives one
	def        string   // default as JSON, when the seed gives one
	repeatable *bool
}

// endpointWant is an operation the seeds or the content authors name.
type endpointWant struct {
	slug, id, method, path string
	params                 []paramWant
}

var seedEndpoints = []endpointWant{
	// Seed 000 A: the script project operations are not shown; the content authors follow the real API.
	{slug: "script", id: "projects.create", method: "POST"},
	{slug: "script", id: "projects.get", method: "GET"},
	{slug: "script", id: "projects.getContent", method: "GET"},
	{slug: "script", id: "projects.updateContent", method: "PUT"},
	{slug: "script", id: "projects.getMetrics", method: "GET"},
	{slug: "script", id: "projects.deployments.create", method: "POST"},
	{slug: "script", id: "projects.deployments.get", method: "GET"},
	{slug: "script", id: "projects.deployments.list", method: "GET"},
	{slug: "script", id: "projects.deployments.update", method: "PUT"},
	{slug: "script", id: "projects.deployments.delete", method: "DELETE"},
	{slug: "script", id: "projects.versions.create", method: "POST"},
	{slug: "script", id: "projects.versions.get", method: "GET"},
	{slug: "script", id: "projects.versions.list", method: "GET"},
	{slug: "script", id: "processes.list", method: "GET"},
	{slug: "script", id: "processes.listScriptProcesses", method: "GET"},
	{slug: "script", id: "scripts.run", method: "POST"},
	// Seed 000 B, C.
	{"chat", "createChatCompletion", "POST", "/v1/chat/completions", []paramWant{
		{name: "model", in: "body", typ: "string"},
		{name: "messages", in: "body", typ: "array"},
		{name: "stream", in: "body", typ: "boolean", def: "false"},
		{name: "tools", in: "body", typ: "array"},
		{name: "tool_choice", in: "body"},
	}},
	{"entities", "entities.search", "GET", "/v1/entities:search", []paramWant{
		{name: "query", typ: "string"},
		{name: "ids", typ: "array", repeatable: yes},
		{name: "languages"},
		{name: "types"},
		{name: "indent", typ: "boolean"},
		{name: "prefix", typ: "boolean"},
		{name: "limit", typ: "integer", max: 500, def: "20"},
	}},
	// Seed 001 A.
	{"docs", "listProjects", "GET", "/api/v2/project/", []paramWant{{name: "slug", typ: "string"}}},
	{"docs", "getProject", "GET", "/api/v2/project/{id}/", []paramWant{{name: "id", in: "path", typ: "integer"}}},
	{"docs", "listProjectActiveVersions", "GET", "/api/v2/project/{id}/active_versions/", []paramWant{{name: "id", in: "path", typ: "integer"}}},
	{"docs", "listVersions", "GET", "/api/v2/version/", []paramWant{
		{name: "project__slug", typ: "string"}, {name: "active", typ: "boolean"},
	}},
	{"docs", "getVersion", "GET", "/api/v2/version/{id}/", []paramWant{{name: "id", in: "path", typ: "integer"}}},
	{"docs", "listBuilds", "GET", "/api/v2/build/", []paramWant{
		{name: "project__slug", typ: "string"}, {name: "commit", typ: "string"},
	}},
	{"docs", "getBuild", "GET", "/api/v2/build/{id}/", []paramWant{{name: "id", in: "path", typ: "integer"}}},
	{"docs", "getEmbed", "GET", "/api/v2/embed/", []paramWant{
		{name: "project", typ: "string"}, {name: "doc", typ: "string"},
		{name: "version", typ: "string", def: `"latest"`}, {name: "section", typ: "string"},
		{name: "path", typ: "string"}, {name: "url", typ: "string"},
	}},
	// Seed 001 B, C.
	{"cluster", "cluster.health", "GET", "/_cluster/health", clusterHealthParams},
	{"cluster", "cluster.health.index", "GET", "/_cluster/health/{index}",
		append([]paramWant{{name: "index", in: "path", typ: "string"}}, clusterHealthParams...)},
	{"cluster", "security.config_upgrade_check", "GET", "/_plugins/_security/api/_upgrade_check", nil},
	{"cluster", "security.config_upgrade_perform", "POST", "/_plugins/_security/api/_upgrade_perform", []paramWant{
		{name: "config", in: "body", typ: "array", enum: []string{"roles", "rolesmapping", "actiongroups", "config", "internalusers", "tenants"}},
	}},
	// Seed 001 D.
	{"pagination", "listItemsPageNumber", "GET", "", []paramWant{{name: "page"}}},
	{"pagination", "listItemsLimitOffset", "GET", "", []paramWant{{name: "limit", typ: "integer"}, {name: "offset", typ: "integer"}}},
	{"pagination", "listItemsCursor", "GET", "", []paramWant{{name: "cursor", typ: "string"}}},
	// Seed 002.
	{"reports", "activities.list", "GET", "/admin/reports/v1/activity/users/{userKey}/applications/{applicationName}", []paramWant{
		{name: "eventName", typ: "string", enum: seedEvents},
		{name: "maxResults", typ: "integer"},
	}},
}

// seedEvents are the calendar event names of seed 002.
var seedEvents = []string{
	"change_calendar_acls", "change_calendar_country", "create_calendar", "delete_calendar",
	"change_calendar_description", "export_calendar", "change_calendar_location",
	"print_preview_calendar", "change_calendar_timezone", "change_calendar_title",
	"notification_triggered", "add_subscription", "delete_subscription",
	"change_appointment_schedule", "create_appointment_schedule", "delete_appointment_schedule",
	"restore_event", "change_event_start_time", "change_event_title", "transfer_event_completed",
	"transfer_event_requested",
	"interop_freebusy_lookup_outbound_successful", "interop_freebusy_lookup_inbound_successful",
	"interop_exchange_resource_availability_lookup_successful",
	"interop_exchange_resource_list_lookup_successful",
	"interop_freebusy_lookup_outbound_unsuccessful", "interop_freebusy_lookup_inbound_unsuccessful",
	"interop_exchange_resource_availability_lookup_unsuccessful",
	"interop_exchange_resource_list_lookup_unsuccessful",
}

// seedEventParameters are the event parameters of seed 002, with their types.
var seedEventParameters = map[string]string{
	"api_kind": "string", "calendar_id": "string", "user_agent": "string", "access_level": "string",
	"grantee_email": "string", "calendar_country": "string", "calendar_description": "string",
	"calendar_location": "string", "calendar_timezone": "string", "calendar_title": "string",
	"requested_period_start": "integer", "requested_period_end": "integer", "event_id": "string",
	"event_title": "string", "old_event_title": "string", "notification_message_id": "string",
	"notification_method": "string", "notification_type": "string", "recipient_email": "string",
	"subscriber_calendar_id": "string", "appointment_schedule_title": "string",
	"client_side_encrypted": "string", "recurring": "string", "is_recurring": "boolean",
	"organizer_calendar_id": "string", "start_time": "integer", "end_time": "integer",
	"remote_ews_url": "string", "interop_error_code": "string",
}

// TestContentEvents checks the reports operation's x-loupe-events and
// x-loupe-event-parameters against every event and event parameter of seed 002.
func TestContentEvents(t *testing.T) {
	op := loadContent(t).API("reports").Operation("activities.list")
	var events []struct{ Name string }
	if err := json.Unmarshal(op.Extensions["x-loupe-events"], &events); err != nil {
		t.Fatalf("x-loupe-events: %v", err)
	}
	for _, want := range seedEvents {
		if !slices.ContainsFunc(events, func(e struct{ Name string }) bool { return e.Name == want }) {
			t.Errorf("x-loupe-events: event %q missing", want)
		}
	}
	var params map[string]struct{ Type string }
	if err := json.Unmarshal(op.Extensions["x-loupe-event-parameters"], &params); err != nil {
		t.Fatalf("x-loupe-event-parameters: %v", err)
	}
	for name, typ := range seedEventParameters {
		if got, ok := params[name]; !ok || got.Type != typ {
			t.Errorf("x-loupe-event-parameters: %s: got %+v (present %v); want type %s", name, got, ok, typ)
		}
	}
}

var clusterHealthParams = []paramWant{
	{name: "expand_wildcards", typ: "array", enum: []string{"all", "open", "closed", "hidden", "none"}, repeatable: no},
	{name: "level", typ: "string", enum: []string{"cluster", "indices", "shards"}},
	{name: "local", typ: "boolean", def: "false"},
	{name: "timeout", typ: "string"},
	{name: "wait_for_active_shards"},
	{name: "wait_for_nodes"},
	{name: "cluster_manager_timeout", typ: "string"},
	{name: "wait_for_events", typ: "string", enum: []string{"immediate", "urgent", "high", "normal", "low", "languid"}},
	{name: "wait_for_no_initializing_shards", typ: "boolean", def: "false"},
	{name: "wait_for_no_relocating_shards", typ: "boolean", def: "false"},
	{name: "wait_for_status", typ: "string", enum: []string{"green", "yellow", "red"}},
}

func TestContentCoverage(t *testing.T) {
	c := loadContent(t)
	for _, ew := range seedEndpoints {
		t.Run(ew.slug+"/"+ew.id, func(t *testing.T) {
			a := c.API(ew.slug)
			if a == nil {
				t.Fatalf("got no API %q; want it", ew.slug)
			}
			op := a.Operation(ew.id)
			if op == nil {
				t.Fatalf("got no operation %q; want it", ew.id)
			}
			if op.Method != ew.method || (ew.path != "" && op.Path != ew.path) {
				t.Errorf("got %s %s; want %s %s", op.Method, op.Path, ew.method, ew.path)
			}
			for _, pw := range ew.params {
				checkParam(t, op, pw)
			}
		})
	}
}

// checkParam finds a parameter (or body field) and checks what the seed says of it.
func checkParam(t *testing.T, op *catalog.Operation, pw paramWant) {
	t.Helper()
	in := cmp.Or(pw.in, "query")
	var s *catalog.Schema
	var repeatable bool
	if in == "body" {
		if op.Body == nil || op.Body.Schema == nil {
			t.Fatalf("got no body; want one with %q", pw.name)
		}
		i := propertyIndex(op.Body.Schema.Properties, pw.name)
		if i < 0 {
			t.Errorf("body field %q: missing", pw.name)
			return
		}
		s = op.Body.Schema.Properties[i].Schema
	} else {
		i := slices.IndexFunc(op.Parameters, func(p catalog.Parameter) bool { return p.Name == pw.name && p.In == in })
		if i < 0 {
			t.Errorf("%s parameter %q: missing", in, pw.name)
			return
		}
		s, repeatable = op.Parameters[i].Schema, op.Parameters[i].Repeatable
	}
	if pw.typ != "" && s.Type != pw.typ {
		t.Errorf("%s: got type %q; want %q", pw.name, s.Type, pw.typ)
	}
	if pw.repeatable != nil && repeatable != *pw.repeatable {
		t.Errorf("%s: got repeatable %v; want %v", pw.name, repeatable, *pw.repeatable)
	}
	if pw.max != 0 && (s.Maximum == nil || *s.Maximum != pw.max) {
		t.Errorf("%s: got maximum %s; want %v", pw.name, jsonText(s.Maximum), pw.max)
	}
	if pw.def != "" && string(s.Default) != pw.def {
		t.Errorf("%s: got default %s; want %s", pw.name, s.Default, pw.def)
	}
	if len(pw.enum) > 0 {
		es := s
		if s.Type == "array" && s.Items != nil {
			es = s.Items
		}
		checkEnum(t, pw.name, es, pw.enum)
	}
}

// checkEnum checks that every wanted value is among a schema's enum values.
func checkEnum(t *testing.T, what string, s *catalog.Schema, want []string) {
	t.Helper()
	got := map[string]bool{}
	for _, e := range s.Enum {
		var v string
		_ = json.Unmarshal(e.Value, &v)
		got[v] = true
	}
	for _, w := range want {
		if !got[w] {
			t.Errorf("%s: enum value %q missing (got %d values)", what, w, len(s.Enum))
		}
	}
}

// schemaWant is a field of a named schema the seeds define, with its type and values.
type schemaWant struct {
	slug, ref, field, typ string
	enum                  []string
}

var seedSchemas = []schemaWant{
	{"script", "File", "type", "string", []string{"SERVER_JS", "HTML", "JSON", "ENUM_TYPE_UNSPECIFIED"}},
	{"script", "EntryPoint", "entryPointType", "string", []string{"ENTRY_POINT_TYPE_UNSPECIFIED", "WEB_APP", "EXECUTION_API", "ADD_ON"}},
	{"script", "WebAppConfig", "executeAs", "string", []string{"UNKNOWN_EXECUTE_AS", "USER_ACCESSING", "USER_DEPLOYING"}},
	{"script", "WebAppConfig", "access", "string", []string{"UNKNOWN_ACCESS", "MYSELF", "DOMAIN", "ANYONE", "ANYONE_ANONYMOUS"}},
	{"script", "ExecutionApiConfig", "access", "string", []string{"UNKNOWN_ACCESS", "MYSELF", "DOMAIN", "ANYONE", "ANYONE_ANONYMOUS"}},
	{"script", "AddOnEntryPoint", "addOnType", "string", []string{"UNKNOWN_ADDON_TYPE", "MAIL", "DATA_REPORTING"}},
	{"script", "ExecutionRequest", "function", "string", nil},
	{"script", "ExecutionRequest", "devMode", "boolean", nil},
	{"script", "DeploymentConfig", "versionNumber", "integer", nil},
	{"script", "Process", "processStatus", "string", []string{
		"PROCESS_STATUS_UNSPECIFIED", "RUNNING", "PAUSED", "COMPLETED", "CANCELED", "FAILED",
		"TIMED_OUT", "UNKNOWN", "DELAYED", "EXECUTION_DISABLED",
	}},
	{"script", "Process", "processType", "string", []string{
		"PROCESS_TYPE_UNSPECIFIED", "ADD_ON", "EXECUTION_API", "TIME_DRIVEN", "TRIGGER", "WEBAPP",
		"EDITOR", "SIMPLE_TRIGGER", "MENU", "BATCH_TASK",
	}},
	{"script", "Process", "runtimeVersion", "string", []string{"RUNTIME_VERSION_UNSPECIFIED", "DEPRECATED_ES5", "V8"}},
	{"script", "Process", "userAccessLevel", "string", []string{"USER_ACCESS_LEVEL_UNSPECIFIED", "NONE", "READ", "WRITE", "OWNER"}},
	{"script", "ListScriptProcessesResponse", "nextPageToken", "string", nil},
	{"chat", "Message", "role", "string", []string{"user", "assistant", "system"}},
	{"docs", "Build", "state", "string", []string{"triggered", "building", "installing", "cloning", "finished"}},
	{"docs", "Build", "type", "string", []string{"html", "pdf", "epub"}},
	{"docs", "Version", "active", "boolean", nil},
	{"cluster", "ClusterHealth", "status", "string", []string{"green", "yellow", "red"}},
	{"cluster", "ClusterHealth", "active_shards_percent_as_number", "number", nil},
	{"cluster", "UpgradeCheckResponse", "upgradeAvailable", "boolean", nil},
}

func TestContentSchemas(t *testing.T) {
	c := loadContent(t)
	for _, sw := range seedSchemas {
		a := c.API(sw.slug)
		if a == nil {
			t.Fatalf("got no API %q; want it", sw.slug)
		}
		s := findSchema(a, sw.ref)
		if s == nil {
			t.Errorf("%s: got no schema %s in any operation; want it", sw.slug, sw.ref)
			continue
		}
		i := propertyIndex(s.Properties, sw.field)
		if i < 0 {
			t.Errorf("%s.%s: missing", sw.ref, sw.field)
			continue
		}
		f := s.Properties[i].Schema
		if f.Type != sw.typ {
			t.Errorf("%s.%s: got type %q; want %q", sw.ref, sw.field, f.Type, sw.typ)
		}
		checkEnum(t, sw.ref+"."+sw.field, f, sw.enum)
	}
}

// findSchema returns the first full (not recursive) schema compiled from the named
// component in any operation of an API.
func findSchema(a *catalog.API, ref string) *catalog.Schema {
	var found *catalog.Schema
	var walk func(s *catalog.Schema)
	walk = func(s *catalog.Schema) {
		if s == nil || found != nil {
			return
		}
		if s.Ref == ref && !s.Recursive {
			found = s
			return
		}
		walk(s.Items)
		walk(s.AdditionalProperties)
		for _, p := range s.Properties {
			walk(p.Schema)
		}
		for _, alt := range append(slices.Clone(s.OneOf), s.AnyOf...) {
			walk(alt)
		}
	}
	for _, op := range a.Operations {
		for _, p := range op.Parameters {
			walk(p.Schema)
		}
		if op.Body != nil {
			walk(op.Body.Schema)
		}
		for _, r := range op.Responses {
			walk(r.Schema)
		}
	}
	return found
}

// jsonText formats a value as JSON, for messages.
func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
