package cluster

import (
	"net/http"
	"strings"
	"sync"
	"testing"
)

// Bodies of the upgrade endpoints.
const (
	checkFresh      = `{"status":"OK","upgradeAvailable":true,"upgradeActions":{"actiongroups":["no_update_required"],"config":[],"internalusers":["no_update_required"],"roles":["update_required"],"rolesmapping":["no_update_required"],"tenants":["no_update_required"]}}`
	checkAfterRoles = `{"status":"OK","upgradeAvailable":true,"upgradeActions":{"actiongroups":["no_update_required"],"config":[],"internalusers":["no_update_required"],"roles":["no_update_required"],"rolesmapping":["update_required"],"tenants":["no_update_required"]}}`
	checkDone       = `{"status":"OK","upgradeAvailable":false,"upgradeActions":{}}`
	performBoth     = `{"status":"OK","upgrades":{"roles":["Added permissions for dashboard features to admin role","Added role flow_framework_full_access"],"rolesmapping":["Mapped role flow_framework_full_access to backend role admin"]}}`
	performRoles    = `{"status":"OK","upgrades":{"roles":["Added permissions for dashboard features to admin role","Added role flow_framework_full_access"]}}`
	performMapping  = `{"status":"OK","upgrades":{"rolesmapping":["Mapped role flow_framework_full_access to backend role admin"]}}`
	performNothing  = `{"status":"OK","upgrades":{}}`
	invalidOption   = `{"status":"BAD_REQUEST","message":"Found invalid configuration option, valid options are: [roles, rolesmapping, actiongroups, config, internalusers, tenants]"}`
)

// step is one request of an upgrade sequence and the answer it wants.
type step struct {
	method, target, body string
	status               int
	want                 string
}

// runSteps sends the steps in order to one fresh handler.
func runSteps(t *testing.T, name string, steps []step) {
	t.Helper()
	h := newTest(Options{})
	for i, s := range steps {
		w := do(t, h, s.method, s.target, apiKey, s.body)
		if w.Code != s.status {
			t.Errorf("%s step %d (%s %s %s): status: got %d; want %d", name, i, s.method, s.target, s.body, w.Code, s.status)
		}
		if !sameJSON(t, w.Body.String(), s.want) {
			t.Errorf("%s step %d (%s %s %s): body:\n got %s\nwant %s", name, i, s.method, s.target, s.body, w.Body, s.want)
		}
	}
}

// TestUpgradeSequences checks check → perform → check with every way of
// naming components.
func TestUpgradeSequences(t *testing.T) {
	check := func(want string) step { return step{http.MethodGet, UpgradeCheckPath, "", http.StatusOK, want} }
	perform := func(body, want string) step {
		return step{http.MethodPost, UpgradePerformPath, body, http.StatusOK, want}
	}
	tests := []struct {
		name  string
		steps []step
	}{
		{"no body", []step{check(checkFresh), perform("", performBoth), check(checkDone), perform("", performNothing), check(checkDone)}},
		{"config", []step{perform(`{"config":["roles","rolesmapping"]}`, performBoth), check(checkDone)}},
		{"configs", []step{perform(`{"configs":["roles","rolesmapping"]}`, performBoth), check(checkDone)}},
		{"config and configs", []step{perform(`{"config":["rolesmapping"],"configs":["roles"]}`, performBoth)}},
		{"empty object", []step{perform(`{}`, performBoth)}},
		{"empty list", []step{perform(`{"config":[]}`, performBoth)}},
		{"null", []step{perform(`{"configs":null}`, performBoth)}},
		{"comma string", []step{perform(`{"configs":"roles, rolesmapping"}`, performBoth)}},
		{"query", []step{{http.MethodPost, UpgradePerformPath + "?configs=roles", "", http.StatusOK, performRoles}, check(checkAfterRoles)}},
		{"roles then rolesmapping", []step{
			perform(`{"configs":["roles"]}`, performRoles), check(checkAfterRoles),
			perform(`{"configs":["roles"]}`, performNothing),
			perform(`{"config":["rolesmapping"]}`, performMapping), check(checkDone),
		}},
		{"rolesmapping first", []step{perform(`{"config":["rolesmapping"]}`, performNothing), check(checkFresh)}},
		{"up-to-date components", []step{perform(`{"config":["tenants","config","internalusers","actiongroups"]}`, performNothing), check(checkFresh)}},
		{"check restricted", []step{
			{http.MethodGet, UpgradeCheckPath + "?configs=roles,tenants", "", http.StatusOK,
				`{"status":"OK","upgradeAvailable":true,"upgradeActions":{"roles":["update_required"],"tenants":["no_update_required"]}}`},
			{http.MethodGet, UpgradeCheckPath + "?config=tenants", "", http.StatusOK, checkDone},
		}},
	}
	for _, tt := range tests {
		runSteps(t, tt.name, tt.steps)
	}
}

// TestUpgradeErrors checks the security plugin's 400 bodies; a refused
// perform changes nothing.
func TestUpgradeErrors(t *testing.T) {
	bad := func(body, want string) step {
		return step{http.MethodPost, UpgradePerformPath, body, http.StatusBadRequest, want}
	}
	tests := []struct {
		name string
		s    step
	}{
		{"unknown component", bad(`{"config":["roles","nodes"]}`, invalidOption)},
		{"unknown component in configs", bad(`{"configs":["ROLES"]}`, invalidOption)},
		{"unknown in query", step{http.MethodPost, UpgradePerformPath + "?config=users", "", http.StatusBadRequest, invalidOption}},
		{"not JSON", bad(`roles`, `{"status":"BAD_REQUEST","message":"Unable to parse content of request body, expected a JSON object with config or configs"}`)},
		{"array body", bad(`["roles"]`, `{"status":"BAD_REQUEST","message":"Unable to parse content of request body, expected a JSON object with config or configs"}`)},
		{"number list", bad(`{"config":[1]}`, `{"status":"BAD_REQUEST","message":"Unable to parse config: expected an array of component names, not an array of other values than strings"}`)},
		{"number", bad(`{"configs":5}`, `{"status":"BAD_REQUEST","message":"Unable to parse configs: expected an array of component names, not a number"}`)},
		{"unknown parameter", step{http.MethodPost, UpgradePerformPath + "?dry_run=true", "", http.StatusBadRequest,
			errorBody("illegal_argument_exception", "request [/_plugins/_security/api/_upgrade_perform] contains unrecognized parameter: [dry_run]")}},
		{"check unknown component", step{http.MethodGet, UpgradeCheckPath + "?configs=nodes", "", http.StatusBadRequest, invalidOption}},
	}
	for _, tt := range tests {
		runSteps(t, tt.name, []step{tt.s, {http.MethodGet, UpgradeCheckPath, "", http.StatusOK, checkFresh}})
	}
}

// TestUpgradeConcurrent performs from many goroutines: exactly one of them
// upgrades (run with -race).
func TestUpgradeConcurrent(t *testing.T) {
	h := newTest(Options{})
	var wg sync.WaitGroup
	bodies := make([]string, 16)
	for i := range bodies {
		wg.Go(func() { bodies[i] = do(t, h, http.MethodPost, UpgradePerformPath, apiKey, "").Body.String() })
	}
	wg.Wait()
	upgraded := 0
	for _, b := range bodies {
		if b == performBoth {
			upgraded++
		} else if b != performNothing {
			t.Errorf("body: got %s; want %s or %s", b, performBoth, performNothing)
		}
	}
	if upgraded != 1 {
		t.Errorf("upgrades: got %d; want 1", upgraded)
	}
}

// TestUpgradeStatePerHandler checks that handlers do not share state.
func TestUpgradeStatePerHandler(t *testing.T) {
	a, b := newTest(Options{}), newTest(Options{})
	do(t, a, http.MethodPost, UpgradePerformPath, apiKey, "")
	if got := get(t, b, UpgradeCheckPath).Body.String(); got != checkFresh {
		t.Errorf("other handler: got %s; want %s", got, checkFresh)
	}
}

// TestSecurityConfigFollowsTheUpgrade checks that the roles and role mappings (what a backup
// saves) change as the upgrade says, and who may read them.
func TestSecurityConfigFollowsTheUpgrade(t *testing.T) {
	h := newTest(Options{GuestKey: "guest-key"})
	has := func(path, name string) bool { _, ok := decode(t, get(t, h, path))[name]; return ok }
	if has(RolesPath, "flow_framework_full_access") || has(RolesMappingPath, "flow_framework_full_access") {
		t.Fatal("a fresh configuration already has flow_framework_full_access")
	}
	do(t, h, http.MethodPost, UpgradePerformPath, apiKey, `{"config":["roles"]}`)
	if !has(RolesPath, "flow_framework_full_access") || has(RolesMappingPath, "flow_framework_full_access") {
		t.Error("after the roles upgrade: want the role, not yet its mapping")
	}
	if got := get(t, h, RolesPath).Body.String(); !strings.Contains(got, `"tenant_permissions":[{"tenant_patterns":["*"],"allowed_actions":["kibana_all_write"]}]`) {
		t.Errorf("after the roles upgrade: all_access lacks the Dashboards permissions: %s", got)
	}
	do(t, h, http.MethodPost, UpgradePerformPath, apiKey, "")
	if !has("/_opendistro/_security/api/rolesmapping", "flow_framework_full_access") {
		t.Error("after the rolesmapping upgrade: want the mapping (legacy path)")
	}
	tests := []struct {
		method, path, auth string
		status             int
	}{
		{http.MethodGet, RolesPath, "ApiKey " + DefaultReaderKey, 200},
		{http.MethodGet, RolesPath + "/", apiKey, 200},
		{http.MethodGet, RolesMappingPath, "ApiKey guest-key", 403},
		{http.MethodPut, RolesPath, apiKey, 405},
		{http.MethodGet, RolesPath + "?x=1", apiKey, 400},
	}
	for _, tt := range tests {
		if w := do(t, h, tt.method, tt.path, tt.auth, ""); w.Code != tt.status {
			t.Errorf("%s %s: got %d; want %d (%s)", tt.method, tt.path, w.Code, tt.status, w.Body)
		}
	}
}
