package e2e

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// pressEnter sends the Enter key as a keyboard does: one keyDown that also types "\r" unless
// the page cancels it, then keyUp. chromedp's KeyEvent types the "\r" in a separate char event
// that cancelling the keydown does not stop (chromedp docs/API.md, example 20).
var pressEnter = chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
	for _, p := range []input.DispatchKeyEventParams{
		{Type: input.DispatchKeyEventTypeKeyDown, Key: "Enter", Code: "Enter", Text: "\r", UnmodifiedText: "\r", WindowsVirtualKeyCode: 13, NativeVirtualKeyCode: 13},
		{Type: input.DispatchKeyEventTypeKeyUp, Key: "Enter", Code: "Enter", WindowsVirtualKeyCode: 13, NativeVirtualKeyCode: 13},
	} {
		if _, err := cdp.Call(ctx, t, input.DispatchKeyEvent, p); err != nil {
			return err
		}
	}
	return nil
})

// TestTheBodyEditorIndents types in the JSON body editor: Enter keeps the indentation (one
// level more after a bracket), Tab and Shift+Tab indent and outdent, and Escape then Tab
// leaves the editor, so the keyboard is never trapped.
func TestTheBodyEditorIndents(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	ctx := newBrowser(t)
	openPage(t, ctx, base+"/cluster/security.config_upgrade_perform")
	tctx := within(t, ctx, 30*time.Second)
	if _, err := chromedp.Run(tctx, chromedp.Evaluate[bool](`(() => {
		const el = document.getElementById("body-editor");
		el.value = '{"config": []}';
		el.dispatchEvent(new Event("input", {bubbles: true}));
		el.focus();
		el.setSelectionRange(12, 12);
		return true;
	})()`)); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name string
		key  chromedp.Action[chromedp.Void]
		want string
	}{
		{"Enter after [", pressEnter, "{\"config\": [\n  ]}"},
		{"Tab", chromedp.KeyEvent("\t"), "{\"config\": [\n    ]}"},
		{"Shift+Tab", chromedp.KeyEvent("\t", chromedp.KeyModifiers(chromedp.ModifierShift)), "{\"config\": [\n  ]}"},
	}
	for _, s := range steps {
		if err := chromedp.Do(tctx, s.key); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		got, err := chromedp.Run(tctx, chromedp.Evaluate[string](`document.getElementById("body-editor").value`))
		if err != nil || got != s.want {
			t.Fatalf("after %s: got %q (%v); want %q", s.name, got, err, s.want)
		}
		if id, _ := chromedp.Run(tctx, chromedp.Evaluate[string](`document.activeElement.id`)); id != "body-editor" {
			t.Fatalf("after %s the focus is on %q; want it to stay in the editor", s.name, id)
		}
	}
	// The form took the typed text: it is what Format works on.
	if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID("body-format"))); err != nil {
		t.Fatal(err)
	}
	formatted, _ := chromedp.Run(tctx, chromedp.Poll[string](`(v => v.includes('"config": []') ? v : null)(document.getElementById("body-editor").value)`,
		chromedp.WithPollingTimeout(5*time.Second)))
	if formatted != "{\n  \"config\": []\n}" {
		t.Errorf("Format after typing: got %q; want the typed body formatted", formatted)
	}
	if err := chromedp.Do(tctx, chromedp.Focus(chromedp.ID("body-editor")), chromedp.KeyEvent(kb.Escape), chromedp.KeyEvent("\t")); err != nil {
		t.Fatal(err)
	}
	if id, _ := chromedp.Run(tctx, chromedp.Evaluate[string](`document.activeElement.id`)); id == "body-editor" {
		t.Errorf("Escape then Tab: the focus stays in the editor; want it to move on")
	}
}
