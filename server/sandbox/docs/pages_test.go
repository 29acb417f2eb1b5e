package docs

import (
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// TestPagesCorpus loads every Markdown page and asks the embed endpoint for
// it three ways (project and doc, path, url), for each of its sections, and
// fetches every image it shows from the sandbox.
func TestPagesCorpus(t *testing.T) {
	d := sharedDataset()
	n := 0
	for _, docs := range d.pages {
		n += len(docs)
	}
	if n < 30 {
		t.Fatalf("pages: got %d; want at least 30", n)
	}
	h := mounted(Options{})
	imgSrc := regexp.MustCompile(`<img src="([^"]+)"`)
	images := 0
	for slug, docs := range d.pages {
		p, ok := d.projectBySlug(slug)
		if !ok {
			t.Errorf("pages of %s: no such project", slug)
			continue
		}
		for doc, page := range docs {
			if len(page.children) == 0 {
				t.Errorf("%s/%s: no sections below the title", slug, doc)
			}
			var byDoc, byPath, byURL embedAnswer
			getJSON(t, h, "http://loupe.test/sandbox/docs/api/v2/embed/?project="+slug+"&doc="+url.QueryEscape(doc), http.StatusOK, &byDoc)
			getJSON(t, h, "http://loupe.test/sandbox/docs/api/v2/embed/?project="+slug+"&path="+url.QueryEscape(doc+".html"), http.StatusOK, &byPath)
			getJSON(t, h, "http://loupe.test/sandbox/docs/api/v2/embed/?url="+url.QueryEscape(byDoc.URL), http.StatusOK, &byURL)
			if byDoc.Content[0] != byPath.Content[0] || byDoc.Content[0] != byURL.Content[0] {
				t.Errorf("%s/%s: by doc, path and url differ", slug, doc)
			}
			if !strings.HasPrefix(byDoc.URL, docBase(p, "latest")) {
				t.Errorf("%s/%s: url %s; want it under %s", slug, doc, byDoc.URL, docBase(p, "latest"))
			}
			for _, hd := range byDoc.Headers[1:] {
				for title, anchor := range hd {
					var sec embedAnswer
					getJSON(t, h, "http://loupe.test/sandbox/docs/api/v2/embed/?url="+url.QueryEscape(byDoc.URL+anchor), http.StatusOK, &sec)
					if !strings.Contains(sec.Content[0], ">"+title+"<a class=\"headerlink\" href=\""+anchor+"\"") {
						t.Errorf("%s/%s%s: section does not start with its heading %q: %.120s", slug, doc, anchor, title, sec.Content[0])
					}
				}
			}
			for _, m := range imgSrc.FindAllStringSubmatch(byDoc.Content[0], -1) {
				images++
				w := serve(t, h, http.MethodGet, m[1], nil)
				body, _ := io.ReadAll(w.Body)
				if w.Code != http.StatusOK || w.Header().Get("Content-Type") != "image/svg+xml" || !strings.Contains(string(body), "<svg") {
					t.Errorf("%s/%s: image %s: got %d %s; want 200 image/svg+xml", slug, doc, m[1], w.Code, w.Header().Get("Content-Type"))
				}
			}
		}
	}
	if images < 5 {
		t.Errorf("images: got %d; want at least 5 in the pages", images)
	}
}

// TestImageRoute wants unknown images and path tricks to be 404s.
func TestImageRoute(t *testing.T) {
	h := mounted(Options{})
	for _, p := range []string{"/_images/pip/nope.svg", "/_images/pip/", "/_images/pip", "/_images/../docs/pip/index.md",
		"/_images/pip/..%2findex.md", "/_images/nope/logo.svg", "/_images/pip/.hidden"} {
		if w := serve(t, h, http.MethodGet, "http://loupe.test/sandbox/docs"+p, nil); w.Code != http.StatusNotFound {
			t.Errorf("GET %s: status %d; want 404", p, w.Code)
		}
	}
	if w := serve(t, h, http.MethodGet, "http://loupe.test/sandbox/docs/_images/kitchen-sink/logo.svg", nil); w.Code != http.StatusOK {
		t.Errorf("logo: status %d; want 200", w.Code)
	}
}

// TestEmbedUnresolvedURL wants a url that is malformed, not http(s), or
// outside every hosted project to answer like the real service, which
// looked the project up from the URL first.
func TestEmbedUnresolvedURL(t *testing.T) {
	h := New(Options{})
	for _, u := range []string{
		"https://example.com/en/latest/x/", "https://pip.pypa.io/fr/stable/", "not a url", "ftp://pip.pypa.io/en/stable/",
		"https://pip.pypa.io:bad/en/stable/", "%zz", "//pip.pypa.io/en/stable/", "https://sdk.nimbus-weather.net/en/stable/",
	} {
		var got map[string]string
		getJSON(t, h, base+"/api/v2/embed/?project=pip&doc=index&url="+url.QueryEscape(u), http.StatusNotFound, &got)
		if got["detail"] != "No Project matches the given query." {
			t.Errorf("url %q: got %v; want detail No Project matches the given query.", u, got)
		}
	}
	// A custom prefix replaces /<language>/.
	var ok embedAnswer
	getJSON(t, h, base+"/api/v2/embed/?url="+url.QueryEscape("https://sdk.nimbus-weather.net/reference/stable/errors/#retries"), http.StatusOK, &ok)
	if ok.Meta["project"] == nil || *ok.Meta["project"] != "nimbus-sdk" || len(ok.Headers) != 1 {
		t.Errorf("custom prefix: got %+v; want nimbus-sdk's retries section", ok)
	}
}
