package cluster

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
)

// Components are the security plugin's configuration components, in the
// contract's order.
var Components = []string{"roles", "rolesmapping", "actiongroups", "config", "internalusers", "tenants"}

// Upgrade indicators of the check (contract shape).
const (
	updateRequired   = "update_required"
	noUpdateRequired = "no_update_required"
)

// maxBodyBytes bounds a perform body.
const maxBodyBytes = 1 << 20

// upgradeState is what the simulated security configuration still lacks
// compared to the bundled defaults. The roles upgrade adds a role; once it
// exists, rolesmapping needs an upgrade too (mapping it), which is why a
// fresh check reports rolesmapping up to date while a perform of both
// changes both. config is not compared (the check gives it an empty list).
type upgradeState struct {
	rolesDone, mappingDone bool
}

// pending lists the changes an upgrade of component would make now.
func (s *upgradeState) pending(component string) []string {
	switch {
	case component == "roles" && !s.rolesDone:
		return []string{"Added permissions for dashboard features to admin role", "Added role flow_framework_full_access"}
	case component == "rolesmapping" && s.rolesDone && !s.mappingDone:
		return []string{"Mapped role flow_framework_full_access to backend role admin"}
	}
	return nil
}

// apply records that component was upgraded.
func (s *upgradeState) apply(component string) {
	switch component {
	case "roles":
		s.rolesDone = true
	case "rolesmapping":
		s.mappingDone = true
	}
}

// checkBody is the check answer.
type checkBody struct {
	Status           string              `json:"status"`
	UpgradeAvailable bool                `json:"upgradeAvailable"`
	UpgradeActions   map[string][]string `json:"upgradeActions"`
}

// performBody is the perform answer.
type performBody struct {
	Status   string              `json:"status"`
	Upgrades map[string][]string `json:"upgrades"`
}

// check answers GET _upgrade_check: one indicator list per component when
// any needs upgrading, else upgradeAvailable false and an empty object. Like
// perform, it accepts config or configs (query or body) to check only some
// components.
func (h *handler) check(w http.ResponseWriter, r *http.Request, path string, u *userState) {
	wanted, ok := components(w, r, path)
	if !ok {
		return
	}
	u.mu.Lock()
	up := u.upgrade
	u.mu.Unlock()
	body := checkBody{Status: "OK", UpgradeActions: map[string][]string{}}
	for _, c := range wanted {
		body.UpgradeAvailable = body.UpgradeAvailable || len(up.pending(c)) > 0
	}
	if body.UpgradeAvailable {
		for _, c := range wanted {
			switch {
			case c == "config":
				body.UpgradeActions[c] = []string{}
			case len(up.pending(c)) > 0:
				body.UpgradeActions[c] = []string{updateRequired}
			default:
				body.UpgradeActions[c] = []string{noUpdateRequired}
			}
		}
	}
	writeJSON(w, r, http.StatusOK, body)
}

// components reads and validates the components a check or perform names,
// in the contract's order (all of them when none is named), or answers the
// error and returns false.
func components(w http.ResponseWriter, r *http.Request, path string) ([]string, bool) {
	if apiErr := checkParams(path, r.URL.Query(), []string{"config", "configs"}); apiErr != nil {
		writeError(w, r, apiErr)
		return nil, false
	}
	named, err := requestedComponents(r)
	if err != nil {
		writeJSON(w, r, http.StatusBadRequest, securityBadRequest(err.Error()))
		return nil, false
	}
	for _, c := range named {
		if !slices.Contains(Components, c) {
			writeJSON(w, r, http.StatusBadRequest, securityBadRequest(
				"Found invalid configuration option, valid options are: ["+strings.Join(Components, ", ")+"]"))
			return nil, false
		}
	}
	if len(named) == 0 {
		return Components, true
	}
	var out []string
	for _, c := range Components {
		if slices.Contains(named, c) {
			out = append(out, c)
		}
	}
	return out, true
}

// perform answers POST _upgrade_perform: upgrades the components the body
// (or query) names in config or configs, or all of them, in the contract's
// order, and lists the changes made; nothing to do gives an empty object.
func (h *handler) perform(w http.ResponseWriter, r *http.Request, path string, u *userState) {
	wanted, ok := components(w, r, path)
	if !ok {
		return
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	body := performBody{Status: "OK", Upgrades: map[string][]string{}}
	next := u.upgrade
	for _, c := range wanted {
		if changes := next.pending(c); len(changes) > 0 {
			next.apply(c)
			body.Upgrades[c] = changes
		}
	}
	if len(body.Upgrades) > 0 {
		if apiErr := h.setUpgrade(r.Context(), u, next); apiErr != nil {
			writeError(w, r, apiErr)
			return
		}
	}
	writeJSON(w, r, http.StatusOK, body)
}

// requestedComponents reads the components to upgrade from the query
// parameters config and configs (comma-separated) and from the optional JSON
// body's config and configs (arrays, or comma-separated strings).
func requestedComponents(r *http.Request) ([]string, error) {
	var out []string
	q := r.URL.Query()
	for _, key := range []string{"config", "configs"} {
		for _, v := range q[key] {
			out = append(out, splitIndices(v)...)
		}
	}
	raw, err := io.ReadAll(io.LimitReader(r.Body, maxBodyBytes+1))
	if err != nil {
		return nil, fmt.Errorf("Unable to read the request body: %w", err)
	}
	if len(raw) > maxBodyBytes {
		return nil, fmt.Errorf("Request body larger than %d bytes", maxBodyBytes)
	}
	if strings.TrimSpace(string(raw)) == "" {
		return out, nil
	}
	var body map[string]json.RawMessage
	if err := json.Unmarshal(raw, &body); err != nil || body == nil {
		return nil, fmt.Errorf("Unable to parse content of request body, expected a JSON object with config or configs")
	}
	for _, key := range []string{"config", "configs"} {
		v, ok := body[key]
		if !ok || string(v) == "null" {
			continue
		}
		var list []string
		if err := json.Unmarshal(v, &list); err != nil {
			var s string
			if err := json.Unmarshal(v, &s); err != nil {
				return nil, fmt.Errorf("Unable to parse %s: expected an array of component names, not %s", key, jsonValueKind(v))
			}
			list = splitIndices(s)
		}
		out = append(out, list...)
	}
	return out, nil
}

// jsonValueKind names the JSON type of the value raw: number, object, boolean...
func jsonValueKind(raw json.RawMessage) string {
	switch t := strings.TrimSpace(string(raw)); {
	case t == "":
		return "nothing"
	case t[0] == '{':
		return "an object"
	case t[0] == '[':
		return "an array of other values than strings"
	case t == "true" || t == "false":
		return "a boolean"
	default:
		return "a number"
	}
}
