package docs

import (
	"net/http/httptest"
	"testing"
)

// TestMediaBase: the image route is named under the site's root, wherever the embed call came
// through: straight to the sandbox, through the server's proxy (with or without a public URL's
// path), or through the static explorer's in-browser proxy under a sub-path.
func TestMediaBase(t *testing.T) {
	h := &handler{prefix: DefaultPrefix}
	tests := []struct {
		name, requestURI, forwardedPrefix, want string
	}{
		{"direct", "/sandbox/docs/api/v2/embed/", "", "http://h/sandbox/docs/_images/"},
		{"through the proxy", "/proxy/docs/api/v2/embed/", "/proxy/docs", "http://h/sandbox/docs/_images/"},
		{"behind a public URL's path", "/proxy/docs/api/v2/embed/", "/loupe/proxy/docs", "http://h/loupe/sandbox/docs/_images/"},
		{"static site under a sub-path", "/docs/api/proxy/docs/api/v2/embed/", "", "http://h/docs/api/sandbox/docs/_images/"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "http://h"+tt.requestURI, nil)
			r.URL.Path = "/api/v2/embed/" // what http.StripPrefix leaves the handler
			if tt.forwardedPrefix != "" {
				r.Header.Set("X-Forwarded-Prefix", tt.forwardedPrefix)
			}
			if got := h.mediaBase(r); got != tt.want {
				t.Errorf("got %s; want %s", got, tt.want)
			}
		})
	}
}

// TestImagesArePublished: every image a page uses is in what a static site publishes.
func TestImagesArePublished(t *testing.T) {
	imgs, err := Images()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := imgs["/pip/install-flow.svg"]; !ok {
		t.Errorf("got %d images without /pip/install-flow.svg; want it published", len(imgs))
	}
}
