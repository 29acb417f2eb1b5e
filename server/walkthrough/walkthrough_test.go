package walkthrough_test

import (
	"context"
	"io/fs"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"loupe/app/catalog"
	"loupe/content"
	"loupe/server"
	"loupe/server/walkthrough"
	"loupe/server/walkthrough/flow"
)

// startServer starts a fresh Loupe server with every API on its built-in sandbox.
func startServer(t *testing.T) (*server.Server, string) {
	t.Helper()
	srv, err := server.New(server.Config{})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(func() { ts.Close(); srv.Close() })
	return srv, ts.URL
}

// TestEveryWalkthroughPassesOnAFreshServer runs each walkthrough of the content, with its
// default inputs, through the proxy to the built-in sandboxes of a fresh server, as
// `loupe walk <id>` does. Every step must be answered and every criterion must hold.
func TestEveryWalkthroughPassesOnAFreshServer(t *testing.T) {
	srv, base := startServer(t)
	if len(srv.Walkthroughs().List()) < 7 {
		t.Errorf("got %d walkthroughs (%v); want at least one per API", len(srv.Walkthroughs().List()), srv.Walkthroughs().IDs())
	}
	for _, w := range srv.Walkthroughs().List() {
		t.Run(w.ID, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			rep, err := walkthrough.Walk(ctx, w, "", nil, proxyOf(base), flow.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var out strings.Builder
			rep.Write(&out)
			if !rep.OK {
				t.Fatalf("the walkthrough failed:\n%s", out.String())
			}
			if len(rep.Steps) < len(w.Workflow.Steps) {
				t.Errorf("got %d steps run; want %d:\n%s", len(rep.Steps), len(w.Workflow.Steps), out.String())
			}
			t.Logf("\n%s", out.String())
		})
	}
}

// overlay serves files from extra first, then from base.
type overlay struct {
	base  fs.FS
	extra fstest.MapFS
}

func (o overlay) Open(name string) (fs.File, error) {
	if f, err := o.extra.Open(name); err == nil {
		return f, nil
	}
	return o.base.Open(name)
}

func (o overlay) ReadDir(name string) ([]fs.DirEntry, error) {
	entries, err := fs.ReadDir(o.base, name)
	if more, err2 := fs.ReadDir(o.extra, name); err2 == nil {
		entries = append(entries, more...)
	} else if err != nil {
		return nil, err
	}
	return entries, nil
}

// TestABrokenWalkthroughStopsTheServer adds a document with a broken expression to the
// content: server.New fails and names the file and line.
func TestABrokenWalkthroughStopsTheServer(t *testing.T) {
	data, err := os.ReadFile("testdata/broken-expression.arazzo.yaml")
	if err != nil {
		t.Fatal(err)
	}
	fsys := overlay{content.FS, fstest.MapFS{"walkthroughs/broken.arazzo.yaml": {Data: data}}}
	srv, err := server.New(server.Config{Content: fsys})
	if err == nil {
		srv.Close()
		t.Fatal("got a server; want an error")
	}
	want := `loading the walkthroughs: content/walkthroughs/broken.arazzo.yaml:17: /workflows/0/steps/0/parameters/0/value: "$inputz.query" is not a runtime expression`
	if !strings.Contains(err.Error(), want) {
		t.Errorf("got %v\nwant it to contain %s", err, want)
	}
}

// TestAFailingCriterionIsReported runs a walkthrough whose search finds nothing: the step is
// answered, each criterion says why it held or failed, and the run stops there.
func TestAFailingCriterionIsReported(t *testing.T) {
	srv, base := startServer(t)
	w := srv.Walkthroughs().Get("entities-search-then-lookup")
	rep, err := walkthrough.Walk(context.Background(), w, "", map[string]string{"query": "zzzqqqxxx"}, proxyOf(base), flow.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.OK || len(rep.Steps) != 1 {
		t.Fatalf("got OK %v after %d steps; want a failure at the first", rep.OK, len(rep.Steps))
	}
	var got []string
	for _, c := range rep.Steps[0].Criteria {
		got = append(got, c.Outcome)
	}
	if want := []string{flow.Passed, flow.Failed}; !slices.Equal(got, want) {
		t.Errorf("got criteria %v; want %v", got, want)
	}
	var out strings.Builder
	rep.Write(&out)
	for _, want := range []string{"✗ $response.body ~ $[?@.itemListElement[0].result['@id']]  (failed: selected nothing)",
		"FAIL: step search failed: a success criterion failed", "compare it with the operation's documented response"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("got\n%s\nwant it to contain %q", out.String(), want)
		}
	}
}

// proxyOf sends a run's requests through the proxy of the server at base.
func proxyOf(base string) *walkthrough.Executor {
	return &walkthrough.Executor{Base: func(api *catalog.API) string { return base + "/proxy/" + api.Slug }}
}
