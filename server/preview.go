package server

import (
	"net/http"
)

// previewPage receives HTML from the page that frames it and renders it. It runs only inside a
// real sandbox, whoever serves it: the Loupe server sends it with access.PreviewCSP (a
// sandbox), and the app frames it with sandbox="allow-scripts"; a static host sends no header,
// so the page checks for itself. Its script does nothing unless
//
//   - its own origin is opaque (self.origin is "null": a sandbox without allow-same-origin),
//     so that the HTML it renders can reach none of the site's cookies, storage, service
//     worker or caches;
//   - it is framed, and each message comes from its parent window (e.source) and from the
//     site's own origin (e.origin, the origin of the page's own address): a page of another
//     site that frames it, sandboxed or not, gets nothing run. It tells only the site's own
//     origin that it is ready.
//
// Its <meta> Content-Security-Policy is access.PreviewCSP's without what a <meta> cannot say
// (sandbox, frame-ancestors): the policy stays in force for the HTML it writes.
//
// Protocol: the parent loads <iframe src="/preview" sandbox="allow-scripts">; the preview posts
// {"loupePreview":"ready"} to its parent; the parent answers with
// iframe.contentWindow.postMessage({"loupePreview":"render","html":"<!doctype html>…"}, "*")
// ("*" because the sandboxed frame's origin is opaque). One render per load: to show other HTML,
// reload the iframe.
const previewPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="` + previewMetaCSP + `">
<title>Preview</title></head><body><script>
(function () {
  var site = new URL(location.href).origin;
  if (self.origin !== "null" || window.parent === window || site === "null") return;
  var done = false;
  window.addEventListener("message", function (e) {
    if (done || e.source !== window.parent || e.origin !== site) return;
    if (!e.data || e.data.loupePreview !== "render" || typeof e.data.html !== "string") return;
    done = true;
    document.open();
    document.write(e.data.html);
    document.close();
  });
  window.parent.postMessage({loupePreview: "ready"}, site);
})();
</script></body></html>
`

// previewMetaCSP is access.PreviewCSP without sandbox and frame-ancestors, which a <meta>
// policy cannot carry.
const previewMetaCSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data: https:"

// previewHandler serves the preview page; its security headers come from access.SecurityHeaders.
func previewHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		_, _ = w.Write([]byte(previewPage))
	})
}
