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
