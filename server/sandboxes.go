package server

import (
	"fmt"
	"net/http"

	"loupe/server/sandbox/chat"
	"loupe/server/sandbox/entities"
	"loupe/server/sandbox/pagination"
)

// newSandboxes builds the built-in sandbox of every API that has one, keyed by slug. Each
// that checks a credential accepts cfg.sandboxKey(slug): sandbox.DefaultKey, the credential
// the default proxy configuration sends, unless the configuration gives that API's sandbox
// another. The pagination API has none (security: []), so its sandbox takes no key.
func newSandboxes(cfg Config) (map[string]http.Handler, error) {
	ent, err := entities.New(entities.Options{Key: cfg.sandboxKey("entities"), Data: cfg.Content})
	if err != nil {
		return nil, fmt.Errorf("starting the entities sandbox: %w", err)
	}
	return map[string]http.Handler{
		"entities":   ent,
		"chat":       chat.New(chat.Options{Key: cfg.sandboxKey("chat"), TokensPerSecond: cfg.ChatTokensPerSecond}),
		"pagination": pagination.New(pagination.Options{}),
	}, nil
}
