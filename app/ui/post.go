package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"loupe/app/fetch"
)

// maxPostAnswer bounds the answer PostJSON reads: a walkthrough run's state carries the last
// answer it judged.
const maxPostAnswer = 64 << 20

// PostJSON sends v as JSON to one of Loupe's own endpoints (path, root-relative; the fetch
// layer routes it to the server or, in the static explorer, the sandbox module) and decodes
// the JSON answer into out, whatever its status: those endpoints answer their errors in a
// field of their own. Call it from ctx.Async.
func PostJSON(ctx context.Context, path string, v, out any) error {
	body, err := json.Marshal(v)
	if err != nil {
		return err
	}
	res, err := fetch.Do(ctx, fetch.Request{Method: "POST", URL: path,
		Headers: []fetch.Header{{Name: "Content-Type", Value: "application/json"}}, Body: body})
	if err != nil {
		return fmt.Errorf("the Loupe server did not answer (%v)", err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(res.Body, maxPostAnswer))
	if err != nil {
		return fmt.Errorf("the Loupe server's answer was cut short (%v)", err)
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("the Loupe server answered %d with something Loupe cannot read: %s", res.Status, Shorten(strings.TrimSpace(string(raw)), 200))
	}
	return nil
}
