package all

import (
	"context"
	"io/fs"
	"net/http"

	"loupe/app/catalog"
	"loupe/server/sandbox/inpage"
	"loupe/server/sandbox/inpage/walks"
	"loupe/server/sandbox/script"
)

// SiteOptions configures Site.
type SiteOptions struct {
	// Proxy answers /proxy/<slug>/<path> (NewProxy). Required.
	Proxy *inpage.Proxy
	// Content is the content directory (content.FS), whose walkthroughs/ the walkthrough
	// service loads. Required.
	Content fs.FS
	// Catalog returns the compiled catalog the walkthroughs are checked against (walks.Options).
	// Required.
	Catalog func(ctx context.Context) (*catalog.Catalog, error)
	// Document fetches a file of the site by its root-relative path (walks.Options). Nil means
	// only the built-in walkthroughs load.
	Document func(ctx context.Context, path string) ([]byte, error)
}

// Site answers, where no Loupe server runs, every request the app sends to a Loupe server
// besides its files, in one handler: /proxy/<slug>/… through the sandboxes, the walkthrough
// runner's and recorder's POST /walkthroughs/…, the script workspace's POST
// /tools/script/syntax and what the sandbox of an API of your own inferred, GET
// /sandbox/<slug>/_sandbox/inference, with the server's own handlers. The static explorer
// splits these among its modules (wasm/sandbox/<slug>, wasm/own, wasm/walkthroughs),
// each answering its share with the same pieces (inpage, walks); this is all of them at once.
func Site(opts SiteOptions) http.Handler {
	mux := http.NewServeMux()
	mux.Handle(script.SyntaxCheckPath, script.SyntaxChecker())
	walks.Register(mux, walks.Options{Content: opts.Content, Catalog: opts.Catalog, Document: opts.Document})
	mux.Handle(inpage.InferencePath, inpage.Inference(opts.Proxy))
	return inpage.Handler(opts.Proxy, mux, "/proxy/<api>/<path>, "+walks.Answers+", POST "+script.SyntaxCheckPath+
		" and GET /sandbox/<api>/_sandbox/inference")
}
