package server

import (
	"fmt"
	"maps"
	"net/http"
	"slices"

	servercatalog "loupe/server/catalog"
	"loupe/server/sandbox/all"
	"loupe/server/sandbox/state"
)

// newSandboxes builds the built-in sandbox of every API that has one, keyed by slug. Each
// that checks a credential accepts cfg.sandboxKey(slug): sandbox.DefaultKey, the credential
// the default proxy configuration sends, unless the configuration gives that API's sandbox
// another. The docs and pagination APIs have none (security: []), so their sandboxes take no key.
// The stateful ones keep each session's state in reg; the script sandbox bounds each user's runs
// with shared's slots when replicas share them, and its authorization server keeps its keys and
// tokens as scriptOAuth says. Each API of your own with no base_url (and sandbox not false) gets
// the sandbox built from its document, own[slug] (all.Own), from what the catalog parsed and
// built of it.
func newSandboxes(cfg Config, reg *state.Registry, shared *sharedLimits, own map[string]servercatalog.OwnDocument, scriptOAuth all.ScriptOAuth) (map[string]http.Handler, error) {
	sbs, err := all.New(all.Options{Key: cfg.sandboxKey, Content: cfg.Content, ChatTokensPerSecond: cfg.ChatTokensPerSecond,
		Registry: reg, ScriptAccessTokenTTL: cfg.ScriptAccessTokenTTL,
		ScriptRunTimeout: cfg.ScriptRunTimeout, ScriptSlots: shared.scriptSlots(), ScriptOAuth: scriptOAuth})
	if err != nil {
		return nil, err
	}
	for _, slug := range slices.Sorted(maps.Keys(own)) {
		a := cfg.Settings.APIs[slug]
		if a == nil || !a.IsOwnSandbox() {
			continue
		}
		sb, err := all.Own(all.OwnOptions{Slug: slug, File: a.OpenAPI, Document: own[slug].Data, Built: own[slug].Built, Hints: a.SandboxHints, Registry: reg})
		if err != nil {
			return nil, fmt.Errorf("apis.%s: the sandbox built from its document: %w", slug, err)
		}
		m := sb.Model()
		cfg.Logger.Info("sandbox built from the document", "api", slug, "collections", len(m.Resources), "stateless", len(m.Stateless))
		sbs[slug] = sb
	}
	return sbs, nil
}
