package script

// entryPoint is the EntryPoint resource: one of webApp, executionApi or addOn is set.
type entryPoint struct {
	EntryPointType string                  `json:"entryPointType"`
	WebApp         *webAppEntryPoint       `json:"webApp,omitempty"`
	ExecutionAPI   *executionAPIEntryPoint `json:"executionApi,omitempty"`
	AddOn          *addOnEntryPoint        `json:"addOn,omitempty"`
}

// webAppEntryPoint is a web app: its URL and who may use it as whom.
type webAppEntryPoint struct {
	URL              string       `json:"url"`
	EntryPointConfig webAppConfig `json:"entryPointConfig"`
}

// webAppConfig says who may run a web app and as whom it runs.
type webAppConfig struct {
	Access    string `json:"access,omitempty"`
	ExecuteAs string `json:"executeAs,omitempty"`
}

// executionAPIEntryPoint is an API executable.
type executionAPIEntryPoint struct {
	EntryPointConfig executionAPIConfig `json:"entryPointConfig"`
}

// executionAPIConfig says who may run an API executable.
type executionAPIConfig struct {
	Access string `json:"access,omitempty"`
}

// addOnEntryPoint is an add-on.
type addOnEntryPoint struct {
	AddOnType         string `json:"addOnType"`
	Title             string `json:"title"`
	Description       string `json:"description,omitempty"`
	PostInstallTipURL string `json:"postInstallTipUrl"`
	HelpURL           string `json:"helpUrl,omitempty"`
	ReportIssueURL    string `json:"reportIssueUrl,omitempty"`
}

// executionAPIEntry is an EXECUTION_API entry point with the access.
func executionAPIEntry(access string) entryPoint {
	return entryPoint{EntryPointType: "EXECUTION_API", ExecutionAPI: &executionAPIEntryPoint{EntryPointConfig: executionAPIConfig{Access: access}}}
}

// entryPointsOf derives a deployment's entry points from its manifest: webapp gives WEB_APP,
// executionApi gives EXECUTION_API, addOns with gmail gives a MAIL ADD_ON (in that order). The
// HEAD deployment's web app is at its /dev URL.
func entryPointsOf(deploymentID, source string, head bool) []entryPoint {
	m := parseManifest(source)
	var out []entryPoint
	if m.WebApp != nil {
		access, as := m.WebApp.Access, m.WebApp.ExecuteAs
		if access == "" {
			access = "MYSELF"
		}
		if as == "" {
			as = "USER_DEPLOYING"
		}
		out = append(out, entryPoint{EntryPointType: "WEB_APP", WebApp: &webAppEntryPoint{URL: webAppURL(deploymentID, head),
			EntryPointConfig: webAppConfig{Access: access, ExecuteAs: as}}})
	}
	if m.ExecutionAPI != nil {
		access := m.ExecutionAPI.Access
		if access == "" {
			access = "MYSELF"
		}
		out = append(out, executionAPIEntry(access))
	}
	if m.AddOns != nil && m.AddOns.Gmail != nil {
		out = append(out, entryPoint{EntryPointType: "ADD_ON", AddOn: &addOnEntryPoint{AddOnType: "MAIL",
			Title: m.AddOns.Common.Name, PostInstallTipURL: ""}})
	}
	return out
}

// hasExecutionAPI reports whether the entry points include an API executable.
func hasExecutionAPI(eps []entryPoint) bool {
	for _, e := range eps {
		if e.EntryPointType == "EXECUTION_API" {
			return true
		}
	}
	return false
}
