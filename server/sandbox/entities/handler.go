// Package entities is the built-in entity search sandbox: an http.Handler
// that answers GET /v1/entities:search like the Knowledge Graph Search API,
// returning JSON-LD over a dataset of a few hundred real entities.
//
// It is mounted at /sandbox/entities with the prefix stripped, so it sees
// paths like /v1/entities:search.
package entities

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
)

// SearchPath is the one path the handler serves.
const SearchPath = "/v1/entities:search"

// DefaultDir is where the dataset lives inside Options.Data.
const DefaultDir = "data/entities"

// Options configures New.
type Options struct {
	// Key is the API key every request must carry in the key query parameter.
	// Required: New fails when it is empty. A request without a key gets 403,
	// one with another key gets 400, with the API's exact error bodies.
	Key string
	// Data is the file system holding the dataset, usually the content
	// package's embedded tree. Every *.json file in Dir is loaded and merged.
	// Either Data or JSON is required; Data wins when both are set.
	Data fs.FS
	// Dir is the folder of Data holding the dataset; default DefaultDir
	// ("data/entities").
	Dir string
	// JSON is a single dataset file's content, used when Data is nil (tests,
	// tools).
	JSON []byte
}

// handler serves entities:search over a prebuilt index.
type handler struct {
	key string
	ix  *index
}

// New loads and indexes the dataset and returns the sandbox handler.
func New(opts Options) (http.Handler, error) {
	if opts.Key == "" {
		return nil, errors.New("entities sandbox: Options.Key is required")
	}
	var d *Dataset
	var err error
	switch {
	case opts.Data != nil:
		dir := opts.Dir
		if dir == "" {
			dir = DefaultDir
		}
		d, err = LoadDataset(opts.Data, dir)
	case opts.JSON != nil:
		d, err = ParseDataset(opts.JSON)
		if err == nil {
			err = d.Validate()
		}
	default:
		err = errors.New("Options.Data or Options.JSON is required")
	}
	if err != nil {
		return nil, fmt.Errorf("entities sandbox: %w", err)
	}
	return &handler{key: opts.Key, ix: buildIndex(d)}, nil
}

// ServeHTTP checks, in order: path (404), method (405), key (403/400), empty
// body (400), parameters (400); then searches and writes the JSON-LD list.
func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != SearchPath {
		writeError(w, newError(http.StatusNotFound, "NOT_FOUND", "notFound",
			fmt.Sprintf("The requested URL %s was not found on this server. The entity search API serves GET %s.", r.URL.Path, SearchPath)))
		return
	}
	if r.Method != http.MethodGet {
		w.Header().Set("Allow", http.MethodGet)
		writeError(w, newError(http.StatusMethodNotAllowed, "", "httpMethodNotAllowed",
			fmt.Sprintf("Method %s is not allowed for %s; use GET.", r.Method, SearchPath)))
		return
	}
	v := r.URL.Query()
	switch key, ok := v["key"]; {
	case !ok || len(key) == 0 || key[0] == "":
		writeRaw(w, http.StatusForbidden, missingKeyBody)
		return
	case key[0] != h.key:
		writeRaw(w, http.StatusBadRequest, invalidKeyBody)
		return
	}
	if nonEmptyBody(r) {
		writeError(w, newError(http.StatusBadRequest, "INVALID_ARGUMENT", "badRequest",
			"The request body must be empty for GET "+SearchPath+"; pass the parameters in the query string."))
		return
	}
	q, apiErr := parseQuery(v)
	if apiErr != nil {
		writeError(w, apiErr)
		return
	}
	doc := h.ix.render(h.ix.search(q), q.languages)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if q.indent {
		enc.SetIndent("", "  ")
	}
	if err := enc.Encode(doc); err != nil {
		writeError(w, newError(http.StatusInternalServerError, "INTERNAL", "backendError", "Internal error encountered."))
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.Header().Set("Vary", "Origin, X-Origin, Referer")
	_, _ = w.Write(buf.Bytes())
}

// nonEmptyBody reports whether the request carries at least one body byte.
func nonEmptyBody(r *http.Request) bool {
	if r.Body == nil || r.Body == http.NoBody {
		return false
	}
	if r.ContentLength > 0 {
		return true
	}
	var b [1]byte
	n, _ := io.ReadFull(r.Body, b[:])
	return n > 0
}
