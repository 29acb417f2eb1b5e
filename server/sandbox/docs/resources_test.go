package docs

import (
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"
)

// allProjects are the IDs of every project, by slug.
var allProjects = []int{105, 115, 118, 103, 112, 117, 107, 17, 102, 108, 106, 53, 113, 110, 6, 109, 104, 116, 111, 114, 101}

// pipActive are pip's active versions in list order (verbose name, descending).
var pipActive = []int{1437428, 3681, 21980034, 21371123, 20930482, 19847203, 19210566, 18492317, 17605118, 15280047, 12811920, 10026115}

func TestListFilters(t *testing.T) {
	tests := []struct {
		name      string
		target    string
		wantCount int
		wantIDs   []int // first page (limit 100)
	}{
		{"all projects, by slug", "/api/v2/project/", 21, allProjects},
		{"project by slug", "/api/v2/project/?slug=mkdocs", 1, []int{53}},
		{"project slug is exact", "/api/v2/project/?slug=pi", 0, []int{}},
		{"empty slug does not filter", "/api/v2/project/?slug=", 21, allProjects},
		{"all versions (private ones are not shown)", "/api/v2/version/", 314, nil},
		{"pip's versions", "/api/v2/version/?project__slug=pip", 14, append(append([]int{}, pipActive[:2]...),
			append([]int{312447}, append(append([]int{}, pipActive[2:]...), 13521)...)...)},
		{"pip's active versions", "/api/v2/version/?project__slug=pip&active=true", 12, pipActive},
		{"active=True", "/api/v2/version/?project__slug=pip&active=True", 12, pipActive},
		{"active=1", "/api/v2/version/?project__slug=pip&active=1", 12, pipActive},
		{"pip's inactive versions", "/api/v2/version/?project__slug=pip&active=false", 2, []int{312447, 13521}},
		{"active=0", "/api/v2/version/?project__slug=kitchen-sink&active=0", 1, []int{2204518}},
		{"unknown active value does not filter", "/api/v2/version/?project__slug=kitchen-sink&active=maybe", 3, []int{2204530, 2204518, 2204511}},
		{"inactive across projects", "/api/v2/version/?active=false", 116, nil},
		{"a generated project's versions", "/api/v2/version/?project__slug=ledgerline", 17, nil},
		{"unknown project", "/api/v2/version/?project__slug=nope", 0, []int{}},
		{"all builds", "/api/v2/build/", 2004, nil},
		{"kitchen-sink's builds, most recent first", "/api/v2/build/?project__slug=kitchen-sink", 3, []int{9121002, 9120377, 9120345}},
		{"a generated project's builds", "/api/v2/build/?project__slug=marmot", 111, nil},
		{"pip's builds", "/api/v2/build/?project__slug=pip", 2, []int{7367364, 7301458}},
		{"build by commit", "/api/v2/build/?commit=6f808d7ef80ea2ea5ba3ad9d6ad0e9bd7d3e9fa1", 1, []int{7367364}},
		{"commit and project disagree", "/api/v2/build/?commit=6f808d7ef80ea2ea5ba3ad9d6ad0e9bd7d3e9fa1&project__slug=mkdocs", 0, []int{}},
		{"last value wins", "/api/v2/build/?project__slug=pip&project__slug=mkdocs", 1, []int{8000412}},
	}
	h := New(Options{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sep := "?"
			if strings.Contains(tt.target, "?") {
				sep = "&"
			}
			var p listPage
			getJSON(t, h, base+tt.target+sep+"limit=100", http.StatusOK, &p)
			if got := p.Count; got != tt.wantCount {
				t.Errorf("count: got %d; want %d", got, tt.wantCount)
			}
			if tt.wantIDs == nil {
				return
			}
			if got := resultIDs(t, p); !reflect.DeepEqual(got, tt.wantIDs) {
				t.Errorf("ids: got %v; want %v", got, tt.wantIDs)
			}
		})
	}
}

func TestDetails(t *testing.T) {
	tests := []struct {
		name       string
		target     string
		wantStatus int
		want       map[string]any // a few fields of the body
	}{
		{"project", "/api/v2/project/17/", 200, map[string]any{"slug": "kitchen-sink", "documentation_type": "sphinx"}},
		{"project with a leading zero", "/api/v2/project/053/", 200, map[string]any{"slug": "mkdocs"}},
		{"unknown project", "/api/v2/project/7/", 404, map[string]any{"detail": "No Project matches the given query."}},
		{"version embeds its project", "/api/v2/version/4551233/", 200, map[string]any{"slug": "1.6.0",
			"project": map[string]any{"id": 53.0, "name": "MkDocs", "slug": "mkdocs", "programming_language": "py",
				"default_version": "latest", "default_branch": "master", "repo_type": "git", "repo": "https://github.com/mkdocs/mkdocs",
				"description": "Project documentation with Markdown.", "language": "en", "documentation_type": "mkdocs",
				"canonical_url": "https://mkdocs.readthedocs.io/en/latest/", "users": []any{1022.0}, "custom_prefix": nil},
			"has_pdf": false, "has_epub": false, "has_htmlzip": true, "documentation_type": "mkdocs"}},
		{"unbuilt version has no downloads", "/api/v2/version/13521/", 200, map[string]any{"built": false, "active": false, "downloads": map[string]any{}}},
		{"unknown version", "/api/v2/version/3682/", 404, map[string]any{"detail": "No Version matches the given query."}},
		{"failed build", "/api/v2/build/9120345/", 200, map[string]any{"state": "finished", "success": false,
			"error": "Sphinx error:\nmaster file /home/docs/checkouts/readthedocs.org/user_builds/kitchen-sink/checkouts/latest/contents.rst not found"}},
		{"running build has no length", "/api/v2/build/9121002/", 200, map[string]any{"state": "building", "length": nil}},
		{"unknown build", "/api/v2/build/1/", 404, map[string]any{"detail": "No Build matches the given query."}},
		{"unknown project's active versions", "/api/v2/project/0/active_versions/", 404, map[string]any{"detail": "No Project matches the given query."}},
	}
	h := New(Options{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got map[string]any
			getJSON(t, h, base+tt.target, tt.wantStatus, &got)
			for k, want := range tt.want {
				if !reflect.DeepEqual(got[k], want) {
					t.Errorf("%s: got %v; want %v", k, got[k], want)
				}
			}
		})
	}
}

func TestActiveVersions(t *testing.T) {
	tests := []struct {
		project string
		want    []int
	}{
		{"6", pipActive},
		{"17", []int{2204530, 2204511}},
		{"53", []int{4551200, 4551233, 4551219}},
	}
	h := New(Options{})
	for _, tt := range tests {
		var body struct {
			Versions []json.RawMessage `json:"versions"`
		}
		getJSON(t, h, base+"/api/v2/project/"+tt.project+"/active_versions/", http.StatusOK, &body)
		if got := resultIDs(t, listPage{Results: body.Versions}); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("project %s: got %v; want %v", tt.project, got, tt.want)
		}
	}
}

func TestUnfilteredListsDisabled(t *testing.T) {
	tests := []struct {
		target     string
		wantStatus int
	}{
		{"/api/v2/project/", 410},
		{"/api/v2/project/?slug=", 200},
		{"/api/v2/project/?slug=pip", 200},
		{"/api/v2/version/?active=true", 410},
		{"/api/v2/version/?project__slug=pip", 200},
		{"/api/v2/build/", 410},
		{"/api/v2/build/?commit=x", 200},
		{"/api/v2/build/?project__slug=pip", 200},
		{"/api/v2/build/7367364/", 200},
	}
	h := New(Options{DisableUnfilteredLists: true})
	for _, tt := range tests {
		var body map[string]any
		getJSON(t, h, base+tt.target, tt.wantStatus, &body)
		if tt.wantStatus == 410 && body["error"] != "disabled" {
			t.Errorf("%s: error: got %v; want disabled", tt.target, body["error"])
		}
	}
}
