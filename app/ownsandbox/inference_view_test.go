package ownsandbox

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/internal/apptest"
)

// viewHost renders inferenceView alone (the panel would fetch on mount).
type viewHost struct {
	app.Compo
	a   *catalog.API
	inf *catalog.SandboxInference
}

func (h *viewHost) Render() app.UI { return app.Div().Body(inferenceView(h.a, h.inf)...) }

var petsAPI = &catalog.API{Slug: "pets", Own: true, OwnSandbox: true, Operations: []catalog.Operation{
	{ID: "listPets", Method: "GET", Path: "/pets"}, {ID: "createPet", Method: "POST", Path: "/pets"},
	{ID: "get-pets-petId", Method: "GET", Path: "/pets/{petId}"}, {ID: "getStats", Method: "GET", Path: "/stats"},
}}

func TestInferenceViewSaysWhatIsKept(t *testing.T) {
	inf := &catalog.SandboxInference{
		Resources: []catalog.SandboxCollection{{
			Name: "pets", Collection: "/pets", Item: "/pets/{petId}", Param: "petId", ID: "id", IDType: "uuid",
			Operations: map[string]string{"list": "listPets", "create": "createPet", "read": "get-pets-petId"},
			Pagination: &catalog.SandboxPaging{Style: "offset", Limit: "limit", Default: 20},
			Filters:    []string{"species"}, Seed: 2, SeedFrom: "examples", Source: "configuration",
		}},
		Stateless: []string{"getStats"},
		Hints:     []catalog.SandboxHint{{From: "configuration", Kind: "resource", Target: "/pets", Says: "item /pets/{petId}, id id"}},
		Notes:     []string{"/owners: no JSON schema says what an item is"},
	}
	html := apptest.RenderUI(t, &viewHost{a: petsAPI, inf: inf})
	for _, want := range []string{
		`id="sandbox-collection-pets"`, `data-action="create"`, `href="/pets/createPet"`, `data-action="read"`,
		"id (in the path as {petId}); a created item gets a new UUID", "2 items from the document&#39;s examples",
		"offset, with limit; 20 a page unless asked", "species", "apis.pets.sandbox_hints",
		`id="sandbox-stateless"`, "This operation keeps nothing", `href="/pets/getStats"`, `data-from="configuration"`, "no JSON schema says what an item is",
	} {
		if !strings.Contains(html, want) {
			t.Errorf("the view lacks %q:\n%s", want, html)
		}
	}
	if strings.Contains(html, `data-action="delete"`) {
		t.Errorf("the view lists a delete the collection does not have:\n%s", html)
	}
}

func TestInferenceViewWithNothingKept(t *testing.T) {
	html := apptest.RenderUI(t, &viewHost{a: petsAPI, inf: &catalog.SandboxInference{Stateless: []string{"listPets"}}})
	for _, want := range []string{`id="sandbox-no-collections"`, "Hints followed", "None: all of the above is inferred.", "x-loupe-sandbox"} {
		if !strings.Contains(html, want) {
			t.Errorf("the view lacks %q:\n%s", want, html)
		}
	}
}

func TestIDAndSeedText(t *testing.T) {
	for _, tc := range []struct {
		r        catalog.SandboxCollection
		id, seed string
	}{
		{catalog.SandboxCollection{ID: "id", IDType: "integer", Seed: 1, SeedFrom: "examples"},
			"id; a created item gets the next number", "1 item from the document's examples; Reset restores them"},
		{catalog.SandboxCollection{Param: "tag", IDType: "string", Seed: 3, SeedFrom: "made from the item's schema"},
			"only in the path, {tag} (items hold no id); a created item gets a value made from its schema",
			"3 items, made from the item's schema; Reset restores them"},
		{catalog.SandboxCollection{IDType: "string"}, "none: items are only created and listed", "no item (Reset empties it)"},
	} {
		if got := idText(&tc.r); got != tc.id {
			t.Errorf("idText(%+v): got %q; want %q", tc.r, got, tc.id)
		}
		if got := seedText(&tc.r); got != tc.seed {
			t.Errorf("seedText(%+v): got %q; want %q", tc.r, got, tc.seed)
		}
	}
}

func TestAnswersFromDocument(t *testing.T) {
	for _, tc := range []struct {
		a    catalog.API
		want bool
	}{
		{catalog.API{Own: true, OwnSandbox: true}, true},
		{catalog.API{Own: true}, false}, // a base_url, or sandbox: false, on the server
		{catalog.API{Slug: "chat"}, false},
	} {
		if got := answersFromDocument(&tc.a); got != tc.want {
			t.Errorf("answersFromDocument(%+v): got %v; want %v", tc.a, got, tc.want)
		}
	}
}
