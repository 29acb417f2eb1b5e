package server

import (
	"fmt"
	"net/http"

	"loupe/server/sandbox/chat"
	"loupe/server/sandbox/cluster"
	"loupe/server/sandbox/docs"
	"loupe/server/sandbox/entities"
	"loupe/server/sandbox/pagination"
	"loupe/server/sandbox/reports"
	"loupe/server/sandbox/script"
)

// newSandboxes builds the built-in sandbox of every API that has one, keyed by slug. Each
// that checks a credential accepts cfg.sandboxKey(slug): sandbox.DefaultKey, the credential
// the default proxy configuration sends, unless the configuration gives that API's sandbox
// another. The docs and pagination APIs have none (security: []), so their sandboxes take no key.
func newSandboxes(cfg Config) (map[string]http.Handler, error) {
	ent, err := entities.New(entities.Options{Key: cfg.sandboxKey("entities"), Data: cfg.Content})
	if err != nil {
		return nil, fmt.Errorf("starting the entities sandbox: %w", err)
	}
	rep, err := reports.New(reports.Options{Key: cfg.sandboxKey("reports"), Content: cfg.Content})
	if err != nil {
		return nil, fmt.Errorf("starting the reports sandbox: %w", err)
	}
	return map[string]http.Handler{
		"script":     script.New(script.Options{Key: cfg.sandboxKey("script")}),
		"chat":       chat.New(chat.Options{Key: cfg.sandboxKey("chat"), TokensPerSecond: cfg.ChatTokensPerSecond}),
		"entities":   ent,
		"docs":       docs.New(docs.Options{}),
		"cluster":    cluster.New(cluster.Options{Key: cfg.sandboxKey("cluster")}),
		"pagination": pagination.New(pagination.Options{}),
		"reports":    rep,
	}, nil
}
