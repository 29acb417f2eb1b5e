package op

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/internal/apptest"
)

func renderOp(t *testing.T, mutate func(p *operationPage)) string {
	t.Helper()
	p := NewOperationPage(apptest.FixtureAPI, &apptest.FixtureAPI.Operations[0])
	p.OnInit()
	if mutate != nil {
		mutate(p)
		p.Validate()
	}
	return app.HTMLString(p)
}

func TestOperationPageRendersTheForm(t *testing.T) {
	html := renderOp(t, nil)
	for _, want := range []string{
		`data-param="path:parent"`, `data-param="query:limit"`, `data-param="query:order"`, `data-param="query:deep"`,
		`data-param="query:tags"`, `data-param="header:X-Trace"`, `id="body-editor"`, `id="op-form"`, `id="send"`,
		`id="copy-link"`, `id="preview"`, `id="curl"`, `id="response"`,
		`asc — Oldest first`, `type="checkbox"`, `role="switch"`, `default: 20`, `1 to 500`, `+ Add value`,
		`/proxy/demo/v1/p%2F1/things`, `‹held by the server› (added by the server)`,
	} {
		// A long URL has line-break opportunities (<wbr>) between its parts.
		if !strings.Contains(strings.ReplaceAll(html, "<wbr>", ""), want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	if strings.Contains(html, `aria-invalid`) {
		t.Errorf("an untouched form shows errors")
	}
}

func TestOperationPageShowsErrorsNextToTheFields(t *testing.T) {
	html := renderOp(t, func(p *operationPage) {
		p.State.Params["query:limit"] = []string{"501"}
		p.State.Params["path:parent"] = nil
		p.State.Body = `{"name": 3}`
	})
	for _, want := range []string{`out of range: must be at most 500`, `aria-invalid`, `must be a string, not an integer`} {
		if !strings.Contains(html, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	if strings.Contains(html, "missing: this parameter is required") {
		t.Errorf("a missing field is flagged before any Send")
	}
	html = renderOp(t, func(p *operationPage) {
		p.State.Params["path:parent"] = nil
		p.showMissing = true
	})
	if !strings.Contains(html, "missing: this parameter is required") {
		t.Errorf("a missing field is not flagged after Send")
	}
}
