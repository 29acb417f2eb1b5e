package markdown

import (
	"strings"
	"testing"
)

func TestInternal(t *testing.T) {
	for _, u := range []string{
		"http://127.0.0.1:8080/proxy/cluster/_cluster/settings",
		"https://loupe.example.com/proxy/chat/v1/models",
		"http://localhost:8080/./proxy/x", "http://localhost:8080/a/../proxy/x", "http://h/%70roxy/x",
		"http://h/PROXY/x", "http://h\\proxy/x", "http://h/sandbox/script/v1/projects", "http://h/proxy",
		"/proxy/x", "//h/proxy/x", " http://h/proxy/x",
		"http://h/sandbox/docs/_images/../api/v2/project/", "http://h/sandbox/docs/_images/x.svg?a=b",
		"http://h/sandbox/docs/_images%2f..%2fapi/v2/project/",
	} {
		if !Internal(u) {
			t.Errorf("Internal(%q): got false; want true", u)
		}
	}
	for _, u := range []string{"https://example.com/", "https://example.com/proxyish", "https://upload.wikimedia.org/x.png", "mailto:a@b.c", "",
		"http://127.0.0.1:8080/sandbox/docs/_images/pip/install-flow.svg"} {
		if Internal(u) {
			t.Errorf("Internal(%q): got true; want false", u)
		}
	}
}

// TestProxyURLsAreNotRendered: a chat answer's image or link to Loupe's proxy is kept as text,
// never as a live src or href.
func TestProxyURLsAreNotRendered(t *testing.T) {
	r := NewRenderer()
	for _, src := range []string{
		"![x](http://127.0.0.1:8080/proxy/cluster/_cluster/settings)",
		"[click](http://127.0.0.1:8080/proxy/cluster/_plugins/_security/api/_upgrade_perform)",
		"<http://127.0.0.1:8080/proxy/chat/v1/models>",
		"http://127.0.0.1:8080/proxy/chat/v1/models",
		"![x](https://loupe.example.com/./proxy/x)",
		"[x][r]\n\n[r]: http://h/sandbox/script/v1/projects",
	} {
		out := r.Render(src)
		if strings.Contains(out, `href="http`) || strings.Contains(out, `src="http`) {
			t.Errorf("Render(%q): got %q; want no live URL to the proxy", src, out)
		}
	}
	if out := r.Render("![x](https://example.com/a.png) [y](https://example.com/)"); !strings.Contains(out, `src="https://example.com/a.png"`) || !strings.Contains(out, `href="https://example.com/"`) {
		t.Errorf("other URLs: got %q; want them live", out)
	}
}
