package script

import (
	"slices"
	"strings"
)

// Scope is one OAuth 2.0 scope of the API with the description the consent page shows.
type Scope struct {
	// Name is the scope as a token carries it, e.g. https://www.googleapis.com/auth/script.projects.
	Name string
	// Description says in a few words what the scope allows.
	Description string
}

// Scopes are the 18 scopes of the API, as securitySchemes.oauth2 of script.yaml lists them
// (TestScopesMatchDocument keeps the two equal). The authorization server grants only these.
var Scopes = []Scope{
	{"https://mail.google.com/", "Read, compose, send and permanently delete all email"},
	{"https://www.google.com/calendar/feeds", "See, edit, share and delete all accessible calendars"},
	{"https://www.google.com/m8/feeds", "See, edit, download and delete contacts"},
	{"https://www.googleapis.com/auth/admin.directory.group", "View and manage provisioning of groups on the domain"},
	{"https://www.googleapis.com/auth/admin.directory.user", "View and manage provisioning of users on the domain"},
	{"https://www.googleapis.com/auth/documents", "See, edit, create and delete all documents"},
	{"https://www.googleapis.com/auth/drive", "See, edit, create and delete all files in file storage"},
	{"https://www.googleapis.com/auth/forms", "View and manage forms"},
	{"https://www.googleapis.com/auth/forms.currentonly", "View and manage forms this application has been installed in"},
	{"https://www.googleapis.com/auth/groups", "View and manage groups"},
	{"https://www.googleapis.com/auth/script.deployments", "Create and update script deployments"},
	{"https://www.googleapis.com/auth/script.deployments.readonly", "View script deployments"},
	{"https://www.googleapis.com/auth/script.metrics", "View a project's metrics"},
	{"https://www.googleapis.com/auth/script.processes", "View script processes"},
	{"https://www.googleapis.com/auth/script.projects", "Create and update script projects"},
	{"https://www.googleapis.com/auth/script.projects.readonly", "View script projects"},
	{"https://www.googleapis.com/auth/spreadsheets", "See, edit, create and delete all spreadsheets"},
	{"https://www.googleapis.com/auth/userinfo.email", "See the primary account email address"},
}

// scopeUserinfoEmail lets /oauth/userinfo answer the account's email address.
const scopeUserinfoEmail = "https://www.googleapis.com/auth/userinfo.email"

// authPrefix is the common prefix of the scopes named in opScopes.
const authPrefix = "https://www.googleapis.com/auth/"

// opAuth is what an operation demands of an OAuth access token.
type opAuth struct {
	// method is the RPC method an error names (ErrorInfo metadata "method").
	method string
	// scopes are the scopes the operation accepts: any one of them is enough.
	scopes []string
}

// opScopes is each operation's security requirement, keyed by operationId, as the
// per-operation security lists of script.yaml give them (TestScopesMatchDocument checks it).
// The RPC names follow the one Google's errors show for projects.getContent
// (google.apps.script.v1.ProjectsService.GetContent).
var opScopes = map[string]opAuth{
	"projects.create":               {rpc("ProjectsService.CreateProject"), auth("script.projects")},
	"projects.get":                  {rpc("ProjectsService.GetProject"), auth("script.projects", "script.projects.readonly")},
	"projects.getContent":           {rpc("ProjectsService.GetContent"), auth("script.projects", "script.projects.readonly")},
	"projects.updateContent":        {rpc("ProjectsService.UpdateContent"), auth("script.projects")},
	"projects.getMetrics":           {rpc("ProjectsService.GetMetrics"), auth("script.metrics")},
	"projects.deployments.create":   {rpc("ProjectsService.CreateDeployment"), auth("script.deployments")},
	"projects.deployments.list":     {rpc("ProjectsService.ListDeployments"), auth("script.deployments", "script.deployments.readonly")},
	"projects.deployments.get":      {rpc("ProjectsService.GetDeployment"), auth("script.deployments", "script.deployments.readonly")},
	"projects.deployments.update":   {rpc("ProjectsService.UpdateDeployment"), auth("script.deployments")},
	"projects.deployments.delete":   {rpc("ProjectsService.DeleteDeployment"), auth("script.deployments")},
	"projects.versions.create":      {rpc("ProjectsService.CreateVersion"), auth("script.projects")},
	"projects.versions.list":        {rpc("ProjectsService.ListVersions"), auth("script.projects", "script.projects.readonly")},
	"projects.versions.get":         {rpc("ProjectsService.GetVersion"), auth("script.projects", "script.projects.readonly")},
	"processes.list":                {rpc("ProcessesService.ListUserProcesses"), auth("script.processes")},
	"processes.listScriptProcesses": {rpc("ProcessesService.ListScriptProcesses"), auth("script.processes")},
	"scripts.run": {rpc("ScriptsService.Run"), []string{
		"https://mail.google.com/", "https://www.google.com/calendar/feeds", "https://www.google.com/m8/feeds",
		authPrefix + "admin.directory.group", authPrefix + "admin.directory.user", authPrefix + "documents",
		authPrefix + "drive", authPrefix + "forms", authPrefix + "forms.currentonly", authPrefix + "groups",
		authPrefix + "spreadsheets", authPrefix + "userinfo.email",
	}},
}

// rpc names a method of the API's RPC services.
func rpc(name string) string { return "google.apps.script.v1." + name }

// auth expands short scope names under https://www.googleapis.com/auth/.
func auth(names ...string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = authPrefix + n
	}
	return out
}

// knownScope reports whether s is one of Scopes.
func knownScope(s string) bool {
	return slices.ContainsFunc(Scopes, func(sc Scope) bool { return sc.Name == s })
}

// scopeDescription is the description of a known scope.
func scopeDescription(s string) string {
	for _, sc := range Scopes {
		if sc.Name == s {
			return sc.Description
		}
	}
	return ""
}

// grantsAny reports whether granted holds any one of accepted.
func grantsAny(granted, accepted []string) bool {
	return slices.ContainsFunc(accepted, func(s string) bool { return slices.Contains(granted, s) })
}

// parseScopes splits a space-separated scope parameter into its distinct scopes, in the order
// of Scopes, and returns the first unknown one, if any.
func parseScopes(param string) (scopes []string, unknown string) {
	seen := map[string]bool{}
	for _, s := range strings.Fields(param) {
		if !knownScope(s) {
			return nil, s
		}
		seen[s] = true
	}
	for _, sc := range Scopes {
		if seen[sc.Name] {
			scopes = append(scopes, sc.Name)
		}
	}
	return scopes, ""
}
