package e2e

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestCopyWorksWithoutTheClipboardAPI copies the curl command on a page without
// navigator.clipboard, as on a team server reached over plain HTTP: the command is copied
// through a selection and the button says so.
func TestCopyWorksWithoutTheClipboardAPI(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	ctx := newBrowser(t)
	openPage(t, ctx, base+"/entities/entities.search#v1&query=paris")
	tctx := within(t, ctx, 30*time.Second)
	if _, err := chromedp.Run(tctx, chromedp.Evaluate[bool](`(() => {`+withoutClipboardAPI+`return true; })()`)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(tctx, chromedp.Click(chromedp.CSS(".copy-curl"))); err != nil {
		t.Fatal(err)
	}
	label, err := chromedp.Run(tctx, chromedp.Poll[string](`(b => b.textContent === "Copied" ? b.textContent : null)(document.querySelector(".copy-curl"))`,
		chromedp.WithPollingTimeout(5*time.Second)))
	if err != nil {
		t.Fatalf("the Copy button never said Copied (label %q): %v", label, err)
	}
	curl, _ := chromedp.Run(tctx, chromedp.Text(chromedp.ID("curl")))
	copied, _ := chromedp.Run(tctx, chromedp.Evaluate[string](`window.copiedText || ""`))
	if copied == "" || copied != curl {
		t.Errorf("copied %q; want the curl command %q", copied, curl)
	}
}

// withoutClipboardAPI is script that takes the Clipboard API away, as on a plain-HTTP team
// server, and keeps what a copy by execCommand copies in window.copiedText.
const withoutClipboardAPI = `
		Object.defineProperty(navigator, "clipboard", {value: undefined, configurable: true});
		const exec = document.execCommand.bind(document);
		document.execCommand = (cmd, ...rest) => {
			if (cmd === "copy") window.copiedText = document.activeElement.value;
			return exec(cmd, ...rest);
		};
`
