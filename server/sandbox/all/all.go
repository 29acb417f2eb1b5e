// Package all builds the built-in sandbox of every API in one place, for the two hosts that run
// them: the Loupe server (server/sandboxes.go) and the sandbox module the static explorer runs
// in the browser (wasm/sandbox/<slug>, one module per API, through server/sandbox/inpage).
package all

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"time"

	"loupe/server/sandbox"
	"loupe/server/sandbox/chat"
	"loupe/server/sandbox/cluster"
	"loupe/server/sandbox/docs"
	"loupe/server/sandbox/entities"
	"loupe/server/sandbox/inpage"
	"loupe/server/sandbox/pagination"
	"loupe/server/sandbox/reports"
	"loupe/server/sandbox/script"
	"loupe/server/sandbox/state"
)

// ScriptOAuth is the script sandbox's authorization server's keys and token store (see
// script.Options).
type ScriptOAuth struct {
	// SealKey seals the consent forms (32 bytes). Nil means a key made at start.
	SealKey []byte
	// Tokens keeps the grants and access tokens issued. Nil means in memory only.
	Tokens script.TokenStore
	// TokenKey encrypts what Tokens keeps (32 bytes). Required with Tokens.
	TokenKey []byte
	// Logger receives what goes wrong with Tokens. Nil means slog.Default().
	Logger *slog.Logger
}

// Options configures the sandboxes.
type Options struct {
	// Key returns the credential the sandbox of slug accepts. Nil means sandbox.DefaultKey for
	// every API. The docs and pagination APIs have none (security: []), so it is not asked.
	Key func(slug string) string
	// Content holds content/data (the entities and reports datasets). Required.
	Content fs.FS
	// ChatTokensPerSecond paces the built-in chat model. Zero means no delay (tests).
	ChatTokensPerSecond float64
	// ScriptAccessTokenTTL is how long the script sandbox's access tokens live; zero means an
	// hour (script.Options.AccessTokenTTL).
	ScriptAccessTokenTTL time.Duration
	// ScriptRunTimeout is the wall time a script run may take; zero means 30 s
	// (script.Options.RunTimeout).
	ScriptRunTimeout time.Duration
	// ScriptSlots, when set, bounds each user's script runs across replicas
	// (script.Options.SharedSlots). Nil means the bound is this process's.
	ScriptSlots script.SharedSlots
	// ScriptOAuth is what the script sandbox's authorization server keeps across restarts
	// and replicas: the key of its consent forms, and the store of the tokens it issued with
	// their key (script.Options.SealKey, Tokens, TokenKey, Logger). The zero value keeps
	// nothing beyond the process.
	ScriptOAuth ScriptOAuth
	// Registry holds the per-session state of the stateful sandboxes (server/sandbox/state).
	// Nil means a new one over an in-memory store, default limits, evicted sessions forgotten
	// (NewRegistry).
	Registry *state.Registry
	// OwnDocument returns the OpenAPI document of an API of your own (the static site's
	// /openapi/<slug>.yaml), from which Proxy builds its sandbox on the API's first call
	// (Own). Nil means Proxy answers the built-in APIs only. New does not use it.
	OwnDocument func(ctx context.Context, slug string) ([]byte, error)
	// OwnHints returns the configured sandbox hints of an API of your own (apis.<slug>.sandbox_hints,
	// as the static site wrote them at OwnHintsPath), decoded, or nil when it has none. Nil
	// means no API has any: only the hints in its document (x-loupe-sandbox) are followed.
	OwnHints func(ctx context.Context, slug string) (any, error)
}

// OwnHintsPath is where a static site keeps the configured sandbox hints of the API of your
// own slug, as JSON, beside its document (/openapi/<slug>.yaml); an API with none has no file.
func OwnHintsPath(slug string) string { return inpage.OwnHintsPath(slug) }

// NewRegistry returns the registry a host without a data directory uses: an in-memory store,
// the limits given, an evicted session's changes forgotten with it.
func NewRegistry(limits state.Limits) *state.Registry {
	return state.NewRegistry(state.NewMemory(), state.Options{Limits: limits, DropEvicted: true})
}

// New builds the sandbox of every API, keyed by slug.
func New(opts Options) (map[string]http.Handler, error) {
	if opts.Registry == nil {
		opts.Registry = NewRegistry(state.Limits{})
	}
	key := opts.Key
	if key == nil {
		key = func(string) string { return sandbox.DefaultKey }
	}
	ent, err := entities.New(entities.Options{Key: key("entities"), Data: opts.Content})
	if err != nil {
		return nil, fmt.Errorf("starting the entities sandbox: %w", err)
	}
	rep, err := reports.New(reports.Options{Key: key("reports"), Content: opts.Content})
	if err != nil {
		return nil, fmt.Errorf("starting the reports sandbox: %w", err)
	}
	return map[string]http.Handler{
		"script": script.New(script.Options{Key: key("script"), State: opts.Registry, AccessTokenTTL: opts.ScriptAccessTokenTTL,
			RunTimeout: opts.ScriptRunTimeout, SharedSlots: opts.ScriptSlots, SealKey: opts.ScriptOAuth.SealKey, Tokens: opts.ScriptOAuth.Tokens,
			TokenKey: opts.ScriptOAuth.TokenKey, Logger: opts.ScriptOAuth.Logger}),
		"chat":       chat.New(chat.Options{Key: key("chat"), TokensPerSecond: opts.ChatTokensPerSecond}),
		"entities":   ent,
		"docs":       docs.New(docs.Options{}),
		"cluster":    cluster.New(cluster.Options{Key: key("cluster"), Registry: opts.Registry}),
		"pagination": pagination.New(pagination.Options{Registry: opts.Registry}),
		"reports":    rep,
	}, nil
}
