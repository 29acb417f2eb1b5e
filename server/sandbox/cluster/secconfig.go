package cluster

import "net/http"

// Paths of the security configuration the upgrade changes, which the guided upgrade backs
// up first. Only GET is served (the sandbox's configuration changes only by an upgrade).
const (
	RolesPath        = "/_plugins/_security/api/roles"
	RolesMappingPath = "/_plugins/_security/api/rolesmapping"
)

// role is one role of the security configuration, as GET roles shows it.
type role struct {
	Reserved           bool              `json:"reserved"`
	Hidden             bool              `json:"hidden"`
	Description        string            `json:"description,omitempty"`
	ClusterPermissions []string          `json:"cluster_permissions"`
	IndexPermissions   []indexPermission `json:"index_permissions"`
	TenantPermissions  []tenantPerm      `json:"tenant_permissions"`
	Static             bool              `json:"static"`
}

// indexPermission is a role's permission on index patterns.
type indexPermission struct {
	IndexPatterns  []string `json:"index_patterns"`
	FLS            []string `json:"fls"`
	MaskedFields   []string `json:"masked_fields"`
	AllowedActions []string `json:"allowed_actions"`
}

// tenantPerm is a role's permission on Dashboards tenants.
type tenantPerm struct {
	TenantPatterns []string `json:"tenant_patterns"`
	AllowedActions []string `json:"allowed_actions"`
}

// roleMapping maps users, backend roles and hosts to a role.
type roleMapping struct {
	Reserved        bool     `json:"reserved"`
	Hidden          bool     `json:"hidden"`
	BackendRoles    []string `json:"backend_roles"`
	Hosts           []string `json:"hosts"`
	Users           []string `json:"users"`
	AndBackendRoles []string `json:"and_backend_roles"`
}

// roles is the roles component now: the roles upgrade adds Dashboards permissions to the
// admin role (all_access) and adds flow_framework_full_access.
func (s *upgradeState) roles() map[string]role {
	all := []indexPermission{{IndexPatterns: []string{"*"}, FLS: []string{}, MaskedFields: []string{}, AllowedActions: []string{"*"}}}
	out := map[string]role{
		"all_access": {Reserved: true, Description: "Allow full access to all indices and all cluster APIs (the admin role)",
			ClusterPermissions: []string{"*"}, IndexPermissions: all, TenantPermissions: []tenantPerm{}, Static: true},
		"readall": {Reserved: true, Description: "Provide the minimum permissions for to readall indices",
			ClusterPermissions: []string{"cluster_composite_ops_ro"},
			IndexPermissions: []indexPermission{{IndexPatterns: []string{"*"}, FLS: []string{}, MaskedFields: []string{},
				AllowedActions: []string{"read"}}}, TenantPermissions: []tenantPerm{}, Static: true},
		"kibana_user": {Reserved: true, Description: "Provide the minimum permissions for a Dashboards user",
			ClusterPermissions: []string{"cluster_composite_ops"}, IndexPermissions: []indexPermission{}, TenantPermissions: []tenantPerm{}, Static: true},
	}
	if s.rolesDone {
		a := out["all_access"]
		a.TenantPermissions = []tenantPerm{{TenantPatterns: []string{"*"}, AllowedActions: []string{"kibana_all_write"}}}
		out["all_access"] = a
		out["flow_framework_full_access"] = role{Reserved: true, Description: "Provide full access to the flow framework",
			ClusterPermissions: []string{"cluster:admin/opensearch/flow_framework/*", "cluster_monitor"},
			IndexPermissions: []indexPermission{{IndexPatterns: []string{"*"}, FLS: []string{}, MaskedFields: []string{},
				AllowedActions: []string{"indices:admin/aliases/get", "indices:admin/mappings/get", "indices_monitor"}}},
			TenantPermissions: []tenantPerm{}, Static: true}
	}
	return out
}

// mappings is the rolesmapping component now: the rolesmapping upgrade maps
// flow_framework_full_access to the backend role admin.
func (s *upgradeState) mappings() map[string]roleMapping {
	m := func(backend ...string) roleMapping {
		return roleMapping{BackendRoles: backend, Hosts: []string{}, Users: []string{}, AndBackendRoles: []string{}}
	}
	out := map[string]roleMapping{"all_access": m("admin"), "readall": m("readall"), "kibana_user": m("kibanauser")}
	if s.mappingDone {
		out["flow_framework_full_access"] = m("admin")
	}
	return out
}

// securityConfig answers GET roles or rolesmapping.
func (h *handler) securityConfig(w http.ResponseWriter, r *http.Request, path string, mapping bool, u *userState) {
	if err := checkParams(path, r.URL.Query(), nil); err != nil {
		writeError(w, r, err)
		return
	}
	u.mu.Lock()
	up := u.upgrade
	u.mu.Unlock()
	if mapping {
		writeJSON(w, r, http.StatusOK, up.mappings())
		return
	}
	writeJSON(w, r, http.StatusOK, up.roles())
}
