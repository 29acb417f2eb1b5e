package script

import "time"

// IDs of the seeded data, as the document's examples show them.
const (
	// SeedScriptID is the seeded "Invoice mailer" project.
	SeedScriptID = "1qvD3r1OzRDGF_lHoS8HkAyJtK9gP3kVhDjK5xXzDgBm2bN3eRIqLkHzE"
	// SeedDeploymentID is the seeded API-executable and web-app deployment (version 3).
	SeedDeploymentID = "AKfycbyXq1h8lT6yYb7m2kVf3mQ0ZKp9wN4dR5sE8uJcGtHxLaBvOiPn"
	// SeedAddOnDeploymentID is the seeded add-on deployment (version 2).
	SeedAddOnDeploymentID = "AKfycbzA9dOnDeploymentOfTheInvoiceMailerAddOn7pQ2rS4tU6vW8x"
	// SeedHeadDeploymentID is the seeded project's HEAD deployment.
	SeedHeadDeploymentID = "AKfycbw2mHEADdeploymentForScript1qvD3r1OzRDGF"
	// SharedScriptID is a second seeded project, "Team timesheets", owned by Grace and shared
	// read-only with the caller: reading works, changing it answers 403 PERMISSION_DENIED.
	SharedScriptID = "1TmTsh8GraceHopperSharedTimesheetsReadOnlyForAdaLovelace"
	// SharedDeploymentID is the API-executable deployment of the shared project (access DOMAIN).
	SharedDeploymentID = "AKfycbTeamTimesheetsApiExecutableSharedByGrace0a1b2c3d4e5f"
)

// Sources of the seeded files.
const (
	seedManifest   = `{"timeZone":"Europe/London","exceptionLogging":"STACKDRIVER","runtimeVersion":"V8","executionApi":{"access":"MYSELF"}}`
	seedAddOnMan   = `{"timeZone":"Europe/London","exceptionLogging":"STACKDRIVER","runtimeVersion":"V8","executionApi":{"access":"MYSELF"},"addOns":{"common":{"name":"Invoice mailer"},"gmail":{}}}`
	seedCode       = "function sendInvoices(month) {\n  return ['INV-1001', 'INV-1002'];\n}\n"
	seedFirstCode  = "function sendInvoices(month) {\n  return [];\n}\n"
	seedAddOnCode  = seedCode + "\nfunction onGmailMessage(e) {\n  return {sent: 2};\n}\n"
	lin            = "lin@example.com"
	seedFilesBorn  = "2026-11-20T09:14:03.512Z"
	seedFilesSaved = "2026-11-20T10:02:47.108Z"
)

// seed fills the store with the documented project, its versions, deployments, processes and
// metrics. Where the document's examples disagree with each other, the seed keeps each
// example's own data (see the package's tests for the requests that reproduce them).
func seed(s *store) {
	born, saved := mustTime(seedFilesBorn), mustTime(seedFilesSaved)
	snap := func(when string, man, code string) []file {
		t := mustTime(when)
		return []file{
			{name: manifestName, typ: "JSON", source: man, create: t, update: t, modifier: &ada},
			{name: "Code", typ: "SERVER_JS", source: code, create: t, update: t, modifier: &ada},
		}
	}
	head := []file{
		{name: manifestName, typ: "JSON", source: seedManifest, create: born, update: saved, modifier: &ada},
		{name: "Code", typ: "SERVER_JS", source: seedCode, create: born, update: saved, modifier: &ada},
	}
	p := &project{
		id: SeedScriptID, title: "Invoice mailer", parentID: "1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms",
		create: born, update: saved, creator: ada, modifier: grace,
		files: head,
		versions: []version{
			{number: 1, description: "First release", create: mustTime("2026-10-02T10:00:00.000Z"),
				files: snap("2026-10-02T10:00:00.000Z", seedManifest, seedFirstCode)},
			{number: 2, description: "Add-on entry point", create: mustTime("2026-11-12T08:40:00.000Z"),
				files: snap("2026-11-12T08:40:00.000Z", seedAddOnMan, seedAddOnCode)},
			{number: 3, description: "November release", create: mustTime("2026-11-20T11:45:00.000Z"),
				files: cloneFiles(head)},
		},
		deployments: []*deployment{
			{id: SeedHeadDeploymentID, head: true, manifest: manifestName, update: mustTime("2026-11-20T11:30:00.000Z")},
			{id: SeedDeploymentID, version: 3, manifest: manifestName, description: "November release",
				update: mustTime("2026-11-20T12:00:00.000Z"), entryPoints: []entryPoint{
					{EntryPointType: "WEB_APP", WebApp: &webAppEntryPoint{URL: webAppURL(SeedDeploymentID, false),
						EntryPointConfig: webAppConfig{Access: "DOMAIN", ExecuteAs: "USER_DEPLOYING"}}},
					executionAPIEntry("MYSELF"),
				}},
			{id: SeedAddOnDeploymentID, version: 2, manifest: manifestName, description: "Add-on for the mail client",
				update: mustTime("2026-11-12T08:45:10.000Z"), entryPoints: []entryPoint{
					{EntryPointType: "ADD_ON", AddOn: &addOnEntryPoint{AddOnType: "MAIL", Title: "Invoice mailer",
						Description:       "Send the month's invoices from your inbox.",
						PostInstallTipURL: "https://example.com/invoice-mailer/welcome",
						HelpURL:           "https://example.com/invoice-mailer/help",
						ReportIssueURL:    "https://example.com/invoice-mailer/issues"}},
				}},
		},
	}
	s.addProject(p)
	s.addProject(sharedProject())

	proc := func(key, dep, by, fn, typ, status, access, start string, dur time.Duration) {
		s.processes = append(s.processes, &process{key: key, scriptID: SeedScriptID, deploymentID: dep, runBy: by,
			projectName: p.title, functionName: fn, processType: typ, status: status, access: access,
			start: mustTime(start), duration: dur, runtime: "V8"})
	}
	ms := time.Millisecond
	// Grace's run through the API is still going; Ada's list does not show it (it is not hers).
	proc("0AOp_sendInvoices_20261120_grace", SeedDeploymentID, grace.Email, "sendInvoices", "EXECUTION_API", "RUNNING", "OWNER", "2026-11-20T12:05:31.204Z", 12500*ms)
	proc("0AOp_sendInvoices_20261120", SeedHeadDeploymentID, ada.Email, "sendInvoices", "EXECUTION_API", "COMPLETED", "OWNER", "2026-11-20T12:05:31.204Z", 1482*ms)
	proc("0AOp_doGet_20261120", SeedDeploymentID, lin, "doGet", "WEBAPP", "COMPLETED", "READ", "2026-11-20T11:58:02.771Z", 204*ms)
	proc("0AOp_nightlyReport_20261120", "", ada.Email, "nightlyReport", "TIME_DRIVEN", "FAILED", "OWNER", "2026-11-20T02:00:04.918Z", 311*ms)
	proc("0AOp_sendInvoices_20261119", SeedHeadDeploymentID, ada.Email, "sendInvoices", "EXECUTION_API", "COMPLETED", "OWNER", "2026-11-19T15:12:40.006Z", 1377*ms)
	proc("0AOp_nightlyReport_20261119", "", ada.Email, "nightlyReport", "TIME_DRIVEN", "COMPLETED", "OWNER", "2026-11-19T02:00:03.377Z", 298*ms)
	proc("0AOp_onGmailMessage_20261118", SeedAddOnDeploymentID, ada.Email, "onGmailMessage", "ADD_ON", "COMPLETED", "OWNER", "2026-11-18T09:30:12.450Z", 522*ms)

	day := func(d string) time.Time { return mustTime(d + "T00:00:00Z") }
	s.buckets = append(s.buckets,
		&bucket{scriptID: SeedScriptID, deploymentID: SeedAddOnDeploymentID, day: day("2026-11-05"), users: 3, total: 21, failed: 2},
		&bucket{scriptID: SeedScriptID, deploymentID: SeedDeploymentID, day: day("2026-11-18"), users: 4, total: 37, failed: 1},
		&bucket{scriptID: SeedScriptID, deploymentID: SeedDeploymentID, day: day("2026-11-19"), users: 6, total: 52, failed: 0},
	)
}

// cloneFiles copies a file list.
func cloneFiles(fs []file) []file { return append([]file(nil), fs...) }

// sharedProject is "Team timesheets": Grace's project, shared read-only with the caller.
func sharedProject() *project {
	t := mustTime("2026-09-14T08:00:00.000Z")
	man := `{"timeZone":"Europe/Paris","exceptionLogging":"STACKDRIVER","runtimeVersion":"V8","executionApi":{"access":"DOMAIN"}}`
	files := []file{
		{name: manifestName, typ: "JSON", source: man, create: t, update: t, modifier: &grace},
		{name: "Code", typ: "SERVER_JS", source: "function weeklyTotals(team) {\n  return {team: team, hours: 152};\n}\n",
			create: t, update: t, modifier: &grace},
	}
	return &project{id: SharedScriptID, title: "Team timesheets", create: t, update: t, creator: grace, modifier: grace,
		access: "READ", files: files,
		versions: []version{{number: 1, description: "Weekly totals", create: t, files: cloneFiles(files)}},
		deployments: []*deployment{
			{id: "AKfycbHEADTeamTimesheets", head: true, manifest: manifestName, update: t},
			{id: SharedDeploymentID, version: 1, manifest: manifestName, description: "API", update: t,
				entryPoints: []entryPoint{executionAPIEntry("DOMAIN")}},
		},
	}
}
