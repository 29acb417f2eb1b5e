package fromdoc

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"

	"loupe/server/sandbox/state"
)

// Options configures New.
type Options struct {
	// Name is the API's slug: the key its sessions' changes are stored under in Registry.
	// Required.
	Name string
	// Document is the API's document, loaded (Load). Required.
	Document *Document
	// Registry keeps each sandbox session's collections (server/sandbox/state): a session
	// reads the seeded collections until it changes one. Nil means a registry of its own over
	// an in-memory store.
	Registry *state.Registry
	// Hints override what the sandbox infers of the document's collections, as the
	// document's own x-loupe-sandbox extension does (hints.go); they come from the
	// configuration (apis.<slug>.sandbox). Nil means none.
	Hints *Hints
	// MaxBody caps a request body, in bytes. Zero means 10 MiB.
	MaxBody int64
	// Logger receives what the sandbox could not infer. Nil means slog.Default().
	Logger *slog.Logger
}

// Sandbox answers every operation of a document: requests validated against it, answers
// from its examples or made from its schemas, and the collections it infers kept per user.
type Sandbox struct {
	name    string
	doc     *Document
	model   *Model
	store   *collections
	maxBody int64
}

// New builds the sandbox of a document. It fails when the hints name what the document does
// not have.
func New(opts Options) (*Sandbox, error) {
	if opts.Document == nil || opts.Name == "" {
		return nil, errors.New("fromdoc: a sandbox needs its name and document")
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	model, err := Infer(opts.Document, opts.Hints)
	if err != nil {
		return nil, fmt.Errorf("the %s sandbox: %w", opts.Name, err)
	}
	reg := opts.Registry
	if reg == nil {
		reg = state.NewRegistry(state.NewMemory(), state.Options{DropEvicted: true})
	}
	s := &Sandbox{name: opts.Name, doc: opts.Document, model: model, maxBody: opts.MaxBody}
	if s.maxBody <= 0 {
		s.maxBody = 10 << 20
	}
	s.store = newCollections(reg, opts.Name, opts.Document, model, opts.Logger)
	return s, nil
}

// InferencePath is the sandbox-only call that says what the sandbox inferred of its document
// (Model, as JSON): GET /sandbox/<slug>/_sandbox/inference. The API's page shows it.
const InferencePath = "/_sandbox/inference"

// Model returns what the sandbox inferred of its document.
func (s *Sandbox) Model() *Model { return s.model }

// ServeHTTP implements http.Handler: the request is routed to its operation (404, 405),
// validated (400, 401, 415, 422), then answered by its collection when the inference gave it
// one, else from the document.
func (s *Sandbox) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == InferencePath {
		s.serveInference(w, r)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, s.maxBody+1))
	if err != nil {
		(&problem{Status: http.StatusBadRequest, Detail: "the request body could not be read: " + err.Error()}).write(w, r)
		return
	}
	if int64(len(body)) > s.maxBody {
		(&problem{Status: http.StatusRequestEntityTooLarge, Detail: fmt.Sprintf("the request body is over %d bytes", s.maxBody)}).write(w, r)
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	// served is the request as the API's server would get it (under its server URL's path),
	// which the validator reads; problems name the path the client called.
	served := s.doc.Served(r)
	o, p := s.doc.find(served)
	if p != nil {
		if o, p = s.doc.find(r); p != nil { // called with the server's path already
			p.write(w, r)
			return
		}
		served = r
	}
	if p := s.doc.validate(served, o, body); p != nil {
		p.write(w, r)
		return
	}
	// Prefer asks for a documented answer (a code, an example, a made-up value): the
	// collection is left alone.
	if pref := parsePrefer(r.Header); s.model.action(o) != nil && pref == (preferences{}) {
		act := s.model.action(o)
		s.store.serve(w, served, act, body)
		return
	}
	a, p := s.doc.stateless(o, served)
	if p != nil {
		p.write(w, r)
		return
	}
	a.write(w, r)
}
