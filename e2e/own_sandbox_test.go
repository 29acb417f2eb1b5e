package e2e

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"loupe/server"
	"loupe/server/config"
)

// TestOwnAPISandboxInTheBrowser: an API of your own with no base_url answers from the sandbox
// built from its document. The createPet form sends a pet, which the sandbox keeps for this
// browser's session; the listPets form then finds it.
func TestOwnAPISandboxInTheBrowser(t *testing.T) {
	serialCatalog(t)
	base := startServer(t, func(c *server.Config) {
		settings, err := config.Parse([]byte("apis:\n  pets:\n    openapi: ../server/testdata/petstore-3.0.yaml\n"), "loupe.yaml",
			func(string) (string, bool) { return "", false })
		if err != nil {
			t.Fatal(err)
		}
		c.Settings = settings
	})
	ctx := newBrowser(t)
	tctx := within(t, ctx, 90*time.Second)

	openPage(t, ctx, base+"/pets/createPet")
	body := `{"name":"Biscuit the browser pet","species":"cat"}`
	ok, err := chromedp.Run(tctx, chromedp.Evaluate[bool](`(() => {
		const el = document.getElementById("body-editor");
		if (!el) return false;
		el.focus();
		el.value = `+jsString(body)+`;
		el.dispatchEvent(new Event("input", {bubbles: true}));
		return true;
	})()`))
	if err != nil || !ok {
		t.Fatalf("setting the body: %v %v", ok, err)
	}
	created := sendAndRead(t, tctx, "201")
	var pet struct{ ID, Name string }
	if err := json.Unmarshal([]byte(created), &pet); err != nil || pet.Name != "Biscuit the browser pet" || pet.ID == "" {
		t.Fatalf("createPet answered %s; want the pet with an id", created)
	}

	openPage(t, ctx, base+"/pets/listPets")
	listed := sendAndRead(t, tctx, "200")
	var pets []struct{ ID, Name string }
	if err := json.Unmarshal([]byte(listed), &pets); err != nil || !slices.Contains(pets, pet) {
		t.Errorf("listPets answered %s; want the created pet %+v in it", listed, pet)
	}
}

// sendAndRead clicks Send, waits for the status want, and returns the answer's raw text.
func sendAndRead(t *testing.T, tctx context.Context, want string) string {
	t.Helper()
	if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID("send")), chromedp.WaitVisible(chromedp.ID("response-status"))); err != nil {
		t.Fatal(err)
	}
	status, err := chromedp.Run(tctx, chromedp.Poll[string](`(s => s && s.textContent.trim() || null)(document.getElementById("response-status"))`))
	if err != nil || !strings.HasPrefix(status, want) {
		panel, _ := chromedp.Run(tctx, chromedp.TextContent(chromedp.ID("response")))
		t.Fatalf("status %q; want %s: %s", status, want, panel)
	}
	raw, err := chromedp.Run(tctx, chromedp.Poll[string](`(() => {
		const pre = document.getElementById("response-raw");
		if (!pre) { const tab = document.getElementById("tab-raw"); if (tab) tab.click(); return null; }
		return pre.textContent;
	})()`, chromedp.WithPollingTimeout(20*time.Second)))
	if err != nil {
		panel, _ := chromedp.Run(tctx, chromedp.TextContent(chromedp.ID("response")))
		t.Fatalf("reading the answer: %v; panel: %s", err, panel)
	}
	return raw
}

// TestOwnAPISandboxPageAndBadRequest: the page of an API of your own with no base_url
// (testdata/shelter-3.1.yaml) says what its sandbox inferred: the animals collection with its
// id, the operations that create, read, delete and list it, the document's x-loupe-sandbox
// hints it followed (the id, adopt deleting), the operation answered from the document alone,
// and Reset. A body the form lets through (repeated traits: the form does not check
// uniqueItems) is answered 422 application/problem+json naming the field.
func TestOwnAPISandboxPageAndBadRequest(t *testing.T) {
	serialCatalog(t)
	base := startServer(t, func(c *server.Config) {
		settings, err := config.Parse([]byte("apis:\n  shelter:\n    openapi: testdata/shelter-3.1.yaml\n"), "loupe.yaml",
			func(string) (string, bool) { return "", false })
		if err != nil {
			t.Fatal(err)
		}
		c.Settings = settings
	})
	ctx := newBrowser(t)
	tctx := within(t, ctx, 90*time.Second)

	openPage(t, ctx, base+"/shelter")
	type row struct{ Action, Op string }
	type shown struct {
		Fact, Facts, Stateless, Hints string
		Rows                          []row
		Reset                         bool
	}
	seen, err := chromedp.Run(tctx, chromedp.Poll[shown](`(() => {
		const c = document.getElementById("sandbox-collection-animals");
		if (!c) return null;
		const text = e => e ? e.textContent : "";
		return {
			Fact: text(document.querySelector(".own-api")),
			Facts: text(c.querySelector(".facts")),
			Rows: [...c.querySelectorAll("tr[data-action]")].map(tr => ({Action: tr.dataset.action, Op: tr.querySelector("a").textContent})),
			Stateless: text(document.getElementById("sandbox-stateless")),
			Hints: text(document.getElementById("sandbox-hints")),
			Reset: !!document.getElementById("sandbox-reset"),
		};
	})()`))
	if err != nil {
		section, _ := chromedp.Run(tctx, chromedp.Evaluate[string](`(e => e ? e.textContent : "no inference section")(document.getElementById("sandbox-inference"))`))
		t.Fatalf("waiting for the animals collection on the API page: %v; the section says: %s", err, section)
	}
	if want := []row{{"create", "admitAnimal"}, {"read", "getAnimal"}, {"delete", "adoptAnimal"}, {"list", "listAnimals"}}; !slices.Equal(seen.Rows, want) {
		t.Errorf("the collection's operations: got %v; want %v", seen.Rows, want)
	}
	for _, want := range []string{"/animals and /animals/{tag}", "tag (in the path as {tag})", "offset, with limit and offset", "the document's x-loupe-sandbox"} {
		if !strings.Contains(seen.Facts, want) {
			t.Errorf("the collection's facts say %q; want %q", seen.Facts, want)
		}
	}
	for _, want := range []string{"resource /animals: item /animals/{tag}, id tag", "adoptAnimal", "delete on /animals"} {
		if !strings.Contains(seen.Hints, want) {
			t.Errorf("the hints say %q; want %q", seen.Hints, want)
		}
	}
	if !strings.Contains(seen.Stateless, "shelterStats") || strings.Contains(seen.Stateless, "admitAnimal") {
		t.Errorf("answered from the document alone: got %q; want shelterStats only", seen.Stateless)
	}
	if !strings.Contains(seen.Fact, "built from its document") || !seen.Reset {
		t.Errorf("the page says %q, Reset offered %v; want the sandbox built from the document, and Reset", seen.Fact, seen.Reset)
	}

	openPage(t, ctx, base+"/shelter/admitAnimal")
	ok, err := chromedp.Run(tctx, chromedp.Evaluate[bool](`(() => {
		const el = document.getElementById("body-editor");
		if (!el) return false;
		el.focus();
		el.value = `+jsString(`{"tag":"max-2","name":"Max","traits":["calm","calm"]}`)+`;
		el.dispatchEvent(new Event("input", {bubbles: true}));
		return true;
	})()`))
	if err != nil || !ok {
		t.Fatalf("setting the body: %v %v", ok, err)
	}
	problem := sendAndRead(t, tctx, "422")
	ctype, err := chromedp.Run(tctx, chromedp.Poll[string](`(e => e && e.textContent || null)(document.querySelector("#response .ctype"))`))
	if err != nil || ctype != "application/problem+json" {
		t.Errorf("the answer's content type: got %q (%v); want application/problem+json", ctype, err)
	}
	for _, want := range []string{`"$.traits"`, "items at 0 and 1 are equal", "uniqueItems"} {
		if !strings.Contains(problem, want) {
			t.Errorf("the problem says %s; want it to name %s", problem, want)
		}
	}
}
