package walkthrough

import (
	"context"
	"net/url"

	"loupe/app/catalog"
	"loupe/app/ui"
)

// This file holds the requests the runner makes to Loupe's walkthrough service
// (server/walkthrough.Service; in the static explorer, the sandbox module answers them): the
// run protocol and a document's check.

// runPath is where a walkthrough's run protocol is served: /walkthroughs/<id>/run for one of
// the catalog, /walkthroughs/run for a document the request carries.
func runPath(w *catalog.Walkthrough, doc *ui.WalkFile) string {
	if doc != nil {
		return "/walkthroughs/run"
	}
	return "/walkthroughs/" + url.PathEscape(w.ID) + "/run"
}

// askRun posts a run request and decodes its answer; a request it could not make is an answer
// whose Error says why.
func askRun(ctx context.Context, path string, req catalog.WalkRunRequest) *catalog.WalkRunAnswer {
	var ans catalog.WalkRunAnswer
	if err := ui.PostJSON(ctx, path, req, &ans); err != nil {
		return &catalog.WalkRunAnswer{Error: err.Error()}
	}
	return &ans
}

// checkDocument asks the service to load a document: the walkthrough as the runner shows it,
// or its problems, each at its place.
func checkDocument(ctx context.Context, doc ui.WalkFile) (*catalog.WalkCheckAnswer, error) {
	var ans catalog.WalkCheckAnswer
	if err := ui.PostJSON(ctx, "/walkthroughs/check", catalog.WalkCheckRequest{Document: doc.Text, Name: doc.Name, Origin: ui.Origin()}, &ans); err != nil {
		return nil, err
	}
	return &ans, nil
}
