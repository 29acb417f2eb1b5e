package oauth

import (
	"context"
	"encoding/json"
	"io"
	"net/url"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/fetch"
)

// usesOAuth reports whether the API's document has an OAuth 2.0 scheme, so that its pages ask
// the server whether it signs in.
func usesOAuth(a *catalog.API) bool {
	if a == nil {
		return false
	}
	for _, s := range a.Security {
		if s.Type == "oauth2" {
			return true
		}
	}
	return false
}

// fetchOAuthStatus asks the server about slug; nil when the API does not sign in with OAuth
// here (its credential is not send: oauth2, and the server says it is not offered).
func fetchOAuthStatus(slug string) (*catalog.OAuthStatus, error) {
	cctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := fetch.Do(cctx, fetch.Request{URL: "/oauth/status?api=" + url.QueryEscape(slug),
		Headers: []fetch.Header{{Name: "Accept", Value: "application/json"}}})
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(io.LimitReader(res.Body, 64<<10))
	if err != nil || res.Status != 200 {
		return nil, err
	}
	var st catalog.OAuthStatus
	if err := json.Unmarshal(b, &st); err != nil {
		return nil, err
	}
	if !st.Offered() {
		return nil, nil
	}
	return &st, nil
}

// shortScope is a scope's last path segment, as people name it (script.projects); the whole
// scope when it has none.
func shortScope(s string) string {
	t := strings.TrimRight(s, "/")
	if i := strings.LastIndexByte(t, '/'); i >= 0 && i+1 < len(t) && strings.Contains(s, "/auth/") {
		return t[i+1:]
	}
	return s
}

// currentPath is the page's path, where a sign-in comes back to ("" on the server).
func currentPath() string {
	if !app.IsClient {
		return ""
	}
	return app.Window().Get("location").Get("pathname").String()
}
