package server

import (
	"net/http"
)

// previewPage receives HTML from the page that frames it and renders it. It is served with
// access.PreviewCSP: a sandbox without Loupe's origin, where the HTML's own inline scripts run
// but cannot reach Loupe's cookies, storage or API.
//
// Protocol: the parent loads <iframe src="/preview" sandbox="allow-scripts">; the preview posts
// {"loupePreview":"ready"} to its parent; the parent answers with
// iframe.contentWindow.postMessage({"loupePreview":"render","html":"<!doctype html>…"}, "*")
// ("*" because the sandboxed frame's origin is opaque). One render per load: to show other HTML,
// reload the iframe. Messages from anywhere but the parent window are ignored.
const previewPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Preview</title></head><body><script>
(function () {
  var done = false;
  window.addEventListener("message", function (e) {
    if (done || e.source !== window.parent || !e.data || e.data.loupePreview !== "render" || typeof e.data.html !== "string") return;
    done = true;
    document.open();
    document.write(e.data.html);
    document.close();
  });
  window.parent.postMessage({loupePreview: "ready"}, "*");
})();
</script></body></html>
`

// previewHandler serves the preview page; its security headers come from access.SecurityHeaders.
func previewHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		_, _ = w.Write([]byte(previewPage))
	})
}
