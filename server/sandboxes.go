package server

import (
	"net/http"

	"loupe/server/sandbox/all"
	"loupe/server/sandbox/state"
)

// newSandboxes builds the built-in sandbox of every API that has one, keyed by slug. Each
// that checks a credential accepts cfg.sandboxKey(slug): sandbox.DefaultKey, the credential
// the default proxy configuration sends, unless the configuration gives that API's sandbox
// another. The docs and pagination APIs have none (security: []), so their sandboxes take no key.
// The stateful ones keep each session's state in reg.
func newSandboxes(cfg Config, reg *state.Registry) (map[string]http.Handler, error) {
	return all.New(all.Options{Key: cfg.sandboxKey, Content: cfg.Content, ChatTokensPerSecond: cfg.ChatTokensPerSecond,
		Registry: reg, ScriptAccessTokenTTL: cfg.ScriptAccessTokenTTL,
		ScriptRunTimeout: cfg.ScriptRunTimeout})
}
