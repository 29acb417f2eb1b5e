package app

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/fetch"
	"loupe/app/op"
)

// operationLoader opens an operation the catalog lists partially (a very large API's, see
// catalog.Operation.Partial): it fetches the whole operation from /catalog/<api>/<id>.json,
// puts it in the catalog, and then shows the operation page.
type operationLoader struct {
	app.Compo

	// API and Op are the API and its partial operation.
	API *catalog.API
	Op  *catalog.Operation

	full *catalog.Operation // the whole operation, once fetched
	err  string
	busy string // the key being fetched
}

func newOperationLoader(a *catalog.API, op *catalog.Operation) *operationLoader {
	return &operationLoader{API: a, Op: op}
}

// OnMount fetches the operation.
func (l *operationLoader) OnMount(ctx app.Context) { l.load(ctx) }

// OnUpdate fetches the operation when the page moved to another partial one.
func (l *operationLoader) OnUpdate(ctx app.Context) { l.load(ctx) }

func (l *operationLoader) key() string { return l.API.Slug + "/" + l.Op.ID }

func (l *operationLoader) load(ctx app.Context) {
	key := l.key()
	if (l.full != nil && l.full.API+"/"+l.full.ID == key) || l.busy == key {
		return
	}
	l.busy, l.err = key, ""
	ctx.Async(func() {
		op, err := fetchOperation(key)
		ctx.Dispatch(func(ctx app.Context) {
			if l.busy != key {
				return
			}
			l.busy = ""
			if err != nil {
				l.err = err.Error()
				return
			}
			l.full = storeOperation(l.API, op)
		})
	})
}

func (l *operationLoader) onRetry(ctx app.Context, e app.Event) {
	l.busy = ""
	l.load(ctx)
}

// Render implements app.Composer.
func (l *operationLoader) Render() app.UI {
	switch {
	case l.full != nil && l.full.API+"/"+l.full.ID == l.key():
		return op.NewOperationPage(l.API, l.full)
	case l.err != "":
		return app.Div().Class("page-error").Body(
			app.H1().Text(l.Op.Summary),
			app.P().Text(l.err),
			app.Button().Class("btn").Text("Try again").OnClick(l.onRetry),
		)
	}
	return app.Div().Class("page-loading").Aria("busy", "true").Body(
		app.Span().Class("spinner").Aria("hidden", "true"),
		app.Text("Loading "+l.Op.Method+" "+l.Op.Path+"…"),
	)
}

// fetchOperation fetches the whole of the operation key ("<api>/<id>").
func fetchOperation(key string) (*catalog.Operation, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := fetch.Do(ctx, fetch.Request{URL: "/catalog/" + key + ".json"})
	if err != nil {
		return nil, fmt.Errorf("the operation could not be fetched: %w", err)
	}
	defer res.Body.Close()
	if res.Status != 200 {
		return nil, fmt.Errorf("the operation could not be fetched: the server answered %d %s", res.Status, res.StatusText)
	}
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, fmt.Errorf("the operation could not be read: %w", err)
	}
	var op catalog.Operation
	if err := json.Unmarshal(b, &op); err != nil {
		return nil, fmt.Errorf("the operation is not valid JSON: %w", err)
	}
	return &op, nil
}

// storeOperation puts a fetched operation in place of its partial entry in the API, so the
// next visit needs no fetch, and returns the stored one.
func storeOperation(a *catalog.API, op *catalog.Operation) *catalog.Operation {
	clientCatalog.Lock()
	defer clientCatalog.Unlock()
	for i := range a.Operations {
		if a.Operations[i].ID == op.ID {
			a.Operations[i] = *op
			return &a.Operations[i]
		}
	}
	return op
}
