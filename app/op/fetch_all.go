package op

import (
	"context"
	"fmt"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/request"
	"loupe/app/ui"
)

// fetchAllAction is posted by the response panel's "Fetch all pages" button.
const fetchAllAction = "loupe.fetchAll"

// fetchAll follows the shown page's next links through the proxy, page after page, and shows
// every item in one list. The response panel shows the progress; Cancel (or Escape) stops it
// and shows what arrived. The form keeps the first page's parameters.
func (p *operationPage) fetchAll(ctx app.Context) {
	first := p.result
	if first == nil || first.Status >= 400 || first.Pages > 0 || p.Op.Pagination == nil || p.Sending {
		return
	}
	g := newPageGatherer(p.Op.Pagination)
	next, _, err := g.add(first.Body, first.Headers)
	if err != nil || next == nil {
		return // one page, or not a list: nothing to follow
	}
	root, _ := parseJSON(first.Body)
	prev, _ := pageMovesOf(p.Op.Pagination, root, first.Headers)
	cctx, seq := p.Start()
	p.progress = g.progress()
	op, base, st := p.Op, p.base(), p.State.Clone()
	ctx.Async(func() {
		start := time.Now()
		var stop string
		for next != nil && stop == "" {
			next.apply(op, &st)
			var page *Exchange
			page, stop = fetchPage(cctx, op, base, st, g.pages+1)
			if stop != "" {
				break
			}
			if next, stop, err = g.add(page.Body, page.Headers); err != nil {
				stop = err.Error()
			}
			progress := g.progress()
			ctx.Dispatch(func(app.Context) {
				if seq == p.Seq {
					p.progress = progress
				}
			})
		}
		ex := &Exchange{
			Method: first.Method, URL: first.URL, Status: first.Status, StatusText: first.StatusText,
			Headers: first.Headers, Body: g.body(), Duration: first.Duration + time.Since(start),
			Pages: g.pages, FromShown: prev != nil, Note: stop,
		}
		ctx.Dispatch(func(app.Context) {
			if !p.Finish(seq) {
				return
			}
			p.progress = ""
			p.result = ex
		})
	})
}

// fetchPage asks for page n of the list through the request runner's RoundTrip and returns
// its answer (body and headers, where a Link header may hold the next page); stop says why
// it could not be had.
func fetchPage(ctx context.Context, op *catalog.Operation, base string, st request.State, n int) (page *Exchange, stop string) {
	req, errs := request.Build(op, base, st)
	if len(errs) > 0 {
		return nil, fmt.Sprintf("page %d cannot be asked for (%s: %s)", n, errs[0].Key, errs[0].Message)
	}
	ex := RoundTrip(ctx, req)
	switch {
	case ex.Status == 0 && ex.Canceled:
		return nil, fmt.Sprintf("cancelled before page %d", n)
	case ex.Status == 0:
		return nil, fmt.Sprintf("page %d did not arrive (%s)", n, ex.Err)
	case ex.Err != "" && ex.Canceled:
		return nil, fmt.Sprintf("cancelled during page %d", n)
	case ex.Err != "":
		return nil, fmt.Sprintf("page %d was cut short (%s)", n, ex.Err)
	case ex.Status >= 400:
		return nil, fmt.Sprintf("page %d answered %d", n, ex.Status)
	case ex.Truncated:
		return nil, fmt.Sprintf("page %d is larger than %s", n, ui.HumanSize(MaxBody))
	}
	return ex, ""
}
