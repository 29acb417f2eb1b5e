package ownsandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"loupe/app/catalog"
	"loupe/app/fetch"
	"loupe/app/ui"
)

// fetchInference asks the sandbox of the API slug what it inferred of its document.
func fetchInference(slug string) (*catalog.SandboxInference, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := fetch.Do(ctx, fetch.Request{URL: catalog.SandboxInferenceURL(slug),
		Headers: []fetch.Header{{Name: "Accept", Value: "application/json"}}})
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, 4<<20))
	if err != nil {
		return nil, fmt.Errorf("reading its answer: %w", err)
	}
	if res.Status != 200 {
		return nil, fmt.Errorf("%s", ui.ErrorText(body, res.Status))
	}
	var inf catalog.SandboxInference
	if err := json.Unmarshal(body, &inf); err != nil {
		return nil, errors.New("its answer could not be read as what the sandbox inferred; reload the page (the site may have been updated)")
	}
	return &inf, nil
}
