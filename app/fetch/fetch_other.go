//go:build !js

package fetch

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"sort"
)

// Do sends req and returns as soon as the response headers arrive. Cancelling ctx aborts the
// request, including a body still being read.
func Do(ctx context.Context, req Request) (*Response, error) {
	method := req.Method
	if method == "" {
		method = http.MethodGet
	}
	var body io.Reader
	if req.Body != nil {
		body = bytes.NewReader(req.Body)
	}
	if route := Plan(req.URL, ""); route.Via == ViaRefused {
		return nil, errors.New(route.Refused)
	}
	hr, err := http.NewRequestWithContext(ctx, method, req.URL, body)
	if err != nil {
		return nil, err
	}
	for _, h := range req.Headers {
		hr.Header.Add(h.Name, h.Value)
	}
	res, err := http.DefaultClient.Do(hr)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(res.Header))
	for name := range res.Header {
		names = append(names, name)
	}
	sort.Strings(names)
	var headers []Header
	for _, name := range names {
		for _, v := range res.Header[name] {
			headers = append(headers, Header{Name: name, Value: v})
		}
	}
	text := http.StatusText(res.StatusCode)
	return &Response{Status: res.StatusCode, StatusText: text, Headers: headers, Body: res.Body}, nil
}

// ResetSandbox does nothing outside the browser: the sandbox module runs only in the page.
func ResetSandbox(slug string) error { return nil }
