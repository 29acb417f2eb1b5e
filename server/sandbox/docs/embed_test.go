package docs

import (
	"net/http"
	"reflect"
	"strings"
	"testing"
)

// embedAnswer is a decoded embed body.
type embedAnswer struct {
	Content []string            `json:"content"`
	Headers []map[string]string `json:"headers"`
	URL     string              `json:"url"`
	Meta    map[string]*string  `json:"meta"`
}

// pipGuideHeaders are the headings of pip's user guide.
var pipGuideHeaders = []map[string]string{
	{"User Guide": "#"}, {"Running pip": "#running-pip"}, {"Installing Packages": "#installing-packages"},
	{"Installing from Wheels": "#installing-from-wheels"}, {"Requirements Files": "#requirements-files"},
	{"Constraints Files": "#constraints-files"},
}

func TestEmbed(t *testing.T) {
	tests := []struct {
		name        string
		query       string
		wantStart   string
		wantHas     []string
		wantHeaders []map[string]string
		wantURL     string
		wantMeta    [4]string // project, version, doc, section ("" for null)
	}{
		{"whole page, default version", "?project=pip&doc=user_guide",
			"<div class=\"section\" id=\"user-guide\">\n<h1>User Guide<a class=\"headerlink\" href=\"#user-guide\"",
			[]string{`<h2>Running pip`, `<h3>Installing from Wheels`, "<table>\n<thead>", `<img src="http://docs.test/sandbox/docs/_images/pip/install-flow.svg" alt="How pip finds`, `<pre><code class="language-console">`, `href="https://pypi.org"`},
			pipGuideHeaders, "https://pip.pypa.io/en/latest/user_guide/", [4]string{"pip", "latest", "user_guide", ""}},
		{"index of a dirhtml project", "?project=pip&version=stable&doc=index",
			"<div class=\"section\" id=\"pip\">\n<h1>pip<a",
			[]string{`<h2>Looking for help?`},
			[]map[string]string{{"pip": "#"}, {"Looking for help?": "#looking-for-help"}},
			"https://pip.pypa.io/en/stable/", [4]string{"pip", "stable", "index", ""}},
		{"by path", "?project=pip&version=24.0&path=user_guide/index.html&section=running-pip",
			"<div class=\"section\" id=\"running-pip\">\n<h2>Running pip<a",
			[]string{`python -m pip &lt;pip arguments&gt;`},
			[]map[string]string{{"Running pip": "#running-pip"}},
			"https://pip.pypa.io/en/24.0/user_guide/#running-pip", [4]string{"pip", "24.0", "user_guide", "running-pip"}},
		{"section with a subsection", "?project=pip&doc=user_guide&section=installing-packages",
			"<div class=\"section\" id=\"installing-packages\">\n<h2>Installing Packages<a",
			[]string{"<div class=\"section\" id=\"installing-from-wheels\">\n<h3>", `<table`, `<img`},
			[]map[string]string{{"Installing Packages": "#installing-packages"}, {"Installing from Wheels": "#installing-from-wheels"}},
			"https://pip.pypa.io/en/latest/user_guide/#installing-packages", [4]string{"pip", "latest", "user_guide", "installing-packages"}},
		{"nested section keeps its level", "?project=pip&doc=user_guide&section=installing-from-wheels",
			"<div class=\"section\" id=\"installing-from-wheels\">\n<h3>Installing from Wheels<a",
			[]string{`--prefer-binary`},
			[]map[string]string{{"Installing from Wheels": "#installing-from-wheels"}},
			"https://pip.pypa.io/en/latest/user_guide/#installing-from-wheels", [4]string{"pip", "latest", "user_guide", "installing-from-wheels"}},
		{"section by heading text", "?project=pip&doc=user_guide&section=Constraints%20Files",
			"<div class=\"section\" id=\"constraints-files\">", []string{`constraints.txt`},
			[]map[string]string{{"Constraints Files": "#constraints-files"}},
			"https://pip.pypa.io/en/latest/user_guide/#Constraints Files", [4]string{"pip", "latest", "user_guide", "Constraints Files"}},
		{"section as slugified", "?project=pip&doc=user_guide&section=Requirements_Files",
			"<div class=\"section\" id=\"requirements-files\">", nil,
			[]map[string]string{{"Requirements Files": "#requirements-files"}},
			"https://pip.pypa.io/en/latest/user_guide/#Requirements_Files", [4]string{"pip", "latest", "user_guide", "Requirements_Files"}},
		{"top section by id", "?project=kitchen-sink&doc=index&section=kitchen-sink",
			"<div class=\"section\" id=\"kitchen-sink\">\n<h1>", []string{`class="admonition note"`, `<img src="http://docs.test/sandbox/docs/_images/kitchen-sink/logo.svg" alt="The kitchen sink logo"`},
			[]map[string]string{{"Kitchen Sink": "#"}, {"Admonitions": "#admonitions"}, {"Code": "#code"}, {"Images and tables": "#images-and-tables"}},
			"https://kitchen-sink.readthedocs.io/en/latest/index.html#kitchen-sink", [4]string{"kitchen-sink", "latest", "index", "kitchen-sink"}},
		{"url with a fragment", "?url=https://pip.readthedocs.io/en/23.3.2/user_guide/%23constraints-files",
			"<div class=\"section\" id=\"constraints-files\">", nil,
			[]map[string]string{{"Constraints Files": "#constraints-files"}},
			"https://pip.readthedocs.io/en/23.3.2/user_guide/#constraints-files", [4]string{"pip", "23.3.2", "user_guide", "constraints-files"}},
		{"url of an index", "?url=https://pip.pypa.io/en/stable/",
			"<div class=\"section\" id=\"pip\">", nil,
			[]map[string]string{{"pip": "#"}, {"Looking for help?": "#looking-for-help"}},
			"https://pip.pypa.io/en/stable/", [4]string{"pip", "stable", "index", ""}},
		{"url of an .html page replaces the other parameters", "?project=pip&doc=user_guide&url=https://kitchen-sink.readthedocs.io/en/v2.0/index.html%23code",
			"<div class=\"section\" id=\"code\">", []string{`<span class="k">def</span>`},
			[]map[string]string{{"Code": "#code"}},
			"https://kitchen-sink.readthedocs.io/en/v2.0/index.html#code", [4]string{"kitchen-sink", "v2.0", "index", "code"}},
	}
	h := New(Options{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got embedAnswer
			getJSON(t, h, base+"/api/v2/embed/"+tt.query, http.StatusOK, &got)
			if len(got.Content) != 1 {
				t.Fatalf("content: got %d strings; want 1", len(got.Content))
			}
			html := got.Content[0]
			if !strings.HasPrefix(html, tt.wantStart) || !strings.HasSuffix(html, "</div>") {
				t.Errorf("content: got %.120q...; want it to start with %q and end with </div>", html, tt.wantStart)
			}
			for _, s := range tt.wantHas {
				if !strings.Contains(html, s) {
					t.Errorf("content: got %q; want it to contain %q", html, s)
				}
			}
			if !reflect.DeepEqual(got.Headers, tt.wantHeaders) {
				t.Errorf("headers: got %v; want %v", got.Headers, tt.wantHeaders)
			}
			if got.URL != tt.wantURL {
				t.Errorf("url: got %s; want %s", got.URL, tt.wantURL)
			}
			var meta [4]string
			for i, k := range []string{"project", "version", "doc", "section"} {
				if v := got.Meta[k]; v != nil {
					meta[i] = *v
				}
			}
			if meta != tt.wantMeta {
				t.Errorf("meta: got %q; want %q", meta, tt.wantMeta)
			}
		})
	}
}

func TestEmbedErrors(t *testing.T) {
	const invalid = `Invalid Arguments. Please provide "url" or "section" and "path" GET arguments.`
	tests := []struct {
		name, query string
		wantStatus  int
		wantError   string
	}{
		{"nothing", "", 400, invalid},
		{"project only", "?project=pip", 400, invalid},
		{"doc only", "?doc=user_guide", 400, invalid},
		{"empty url", "?url=&section=x", 400, invalid},
		{"unknown project", "?project=nope&doc=index", 404, "Can't find content for section: doc=index path=None section=None"},
		{"unknown version", "?project=pip&version=99.0&doc=index", 404, "Can't find content for section: doc=index path=None section=None"},
		{"version of another project", "?project=pip&version=v2.0&doc=index", 404, "Can't find content for section: doc=index path=None section=None"},
		{"version never built", "?project=pip&version=1.5.6&doc=index", 404, "Can't find content for section: doc=index path=None section=None"},
		{"unknown doc", "?project=pip&doc=nope&section=x", 404, "Can't find content for section: doc=nope path=None section=x"},
		{"unknown path", "?project=pip&path=nope.html", 404, "Can't find content for section: doc=nope path=nope.html section=None"},
		{"unknown section", "?project=pip&doc=user_guide&section=no-such-section", 404,
			"Can't find content for section: doc=user_guide path=None section=no-such-section"},
		{"project without embeddable pages", "?project=mkdocs&doc=index", 404, "Can't find content for section: doc=index path=None section=None"},
		{"url of an unknown section", "?url=https://pip.pypa.io/en/stable/user_guide/%23nope", 404,
			"Can't find content for section: doc=user_guide path=user_guide/ section=nope"},
	}
	h := New(Options{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got map[string]string
			getJSON(t, h, base+"/api/v2/embed/"+tt.query, tt.wantStatus, &got)
			if got["error"] != tt.wantError {
				t.Errorf("error: got %q; want %q", got["error"], tt.wantError)
			}
		})
	}
}
