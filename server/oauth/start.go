package oauth

import (
	"crypto/rand"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"golang.org/x/oauth2"

	"loupe/server/proxy"
)

// stateCookie binds a sign-in's state to the browser that started it. It holds the pending
// sign-in sealed (seal.go: the browser cannot read the PKCE verifier in it nor change it), is
// HttpOnly (no script reads it), SameSite=Lax (sent when the provider sends the browser back)
// and lasts as long as a sign-in may take.
const (
	stateCookie = "loupe_oauth_state"
	stateTTL    = 10 * time.Minute
)

// pending is a sign-in between /oauth/start and /oauth/callback, sealed in the state cookie.
type pending struct {
	user, api string
	verifier  string
	scopes    []string
	redirect  string // the redirect_uri sent, which the token exchange repeats
	back      string // where the browser returns
	created   time.Time
}

// serveStart checks the API and the scopes, remembers the sign-in and sends the browser to
// the provider's consent page.
func (s *Service) serveStart(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		w.Header().Set("Allow", "GET")
		page(w, http.StatusMethodNotAllowed, "Use GET", "Signing in starts with a link: GET /oauth/start?api=<slug>.", "", "/")
		return
	}
	q := r.URL.Query()
	slug := q.Get("api")
	p := s.provider(slug)
	if p == nil {
		s.unknownAPI(w, slug)
		return
	}
	back := backPath(q.Get("return"), "/"+slug)
	scopes, bad := p.chosen(q["scope"])
	switch {
	case bad != "":
		page(w, http.StatusBadRequest, "Unknown scope", p.title()+" has no scope "+strconvQuote(bad)+".",
			"Choose among the scopes listed on the API's page (or in "+p.ConfigKey+".scopes).", back)
		return
	case len(scopes) == 0:
		page(w, http.StatusBadRequest, "No scope chosen", "Signing in to "+p.title()+" needs at least one scope.",
			"Tick the scopes the operations you want to call need, then Sign in.", back)
		return
	}
	state := rand.Text()
	pd := &pending{user: s.user(r), api: slug, verifier: oauth2.GenerateVerifier(), scopes: scopes,
		redirect: s.origin(r) + Prefix + "callback", back: back, created: time.Now()}
	sealed, err := s.sealer.seal(state, pd)
	if err != nil {
		page(w, http.StatusBadRequest, "Too many scopes at once", "Signing in to "+p.title()+" with all these scopes does not fit in the browser's cookie.",
			"Tick fewer scopes, sign in, then sign in again for the others.", back)
		return
	}
	http.SetCookie(w, &http.Cookie{Name: stateCookie, Value: sealed, Path: Prefix, MaxAge: int(stateTTL / time.Second),
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: strings.HasPrefix(pd.redirect, "https:")})
	cfg := p.oauthConfig(pd.redirect, scopes)
	to := cfg.AuthCodeURL(state, oauth2.S256ChallengeOption(pd.verifier), oauth2.AccessTypeOffline, oauth2.SetAuthURLParam("prompt", "consent"))
	if strings.HasPrefix(to, "/") && s.opts.PublicURL != nil {
		to = strings.TrimRight(s.opts.PublicURL.Path, "/") + to
	}
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Referrer-Policy", "no-referrer")
	http.Redirect(w, r, to, http.StatusSeeOther)
	s.opts.Logger.Info("oauth sign-in started", "user", pd.user, "api", slug, "scopes", len(scopes))
}

// chosen returns the scopes asked for, in the provider's order, or the first one it does not
// know. Each value may hold several scopes separated by spaces.
func (p *Provider) chosen(asked []string) (scopes []string, unknown string) {
	want := map[string]bool{}
	for _, a := range asked {
		for _, sc := range strings.Fields(a) {
			if !slices.ContainsFunc(p.Scopes, func(s Scope) bool { return s.Name == sc }) {
				return nil, sc
			}
			want[sc] = true
		}
	}
	for _, sc := range p.Scopes {
		if want[sc.Name] {
			scopes = append(scopes, sc.Name)
		}
	}
	return scopes, ""
}

// origin is where browsers reach Loupe: the public URL, else the scheme and host the request
// came to (proxy.OwnHost: never a Host the client made up).
func (s *Service) origin(r *http.Request) string {
	if u := s.opts.PublicURL; u != nil {
		return u.Scheme + "://" + u.Host + strings.TrimRight(u.Path, "/")
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + proxy.OwnHost(r)
}

// backPath accepts a path on Loupe to return to, else def.
func backPath(v, def string) string {
	u, err := url.Parse(v)
	if v == "" || err != nil || !strings.HasPrefix(v, "/") || strings.HasPrefix(v, "//") || strings.Contains(v, `\`) || u.Host != "" {
		return def
	}
	return u.EscapedPath()
}

// unknownAPI answers a sign-in or sign-out for an API that does not sign in with OAuth.
func (s *Service) unknownAPI(w http.ResponseWriter, slug string) {
	list := s.slugs()
	check := "The APIs that sign in with OAuth here are: " + list + "."
	if list == "" {
		check = "No API is configured with send: oauth2."
	}
	page(w, http.StatusNotFound, "Unknown API", "There is no API "+strconvQuote(slug)+" that signs in with OAuth.", check, "/")
}

func strconvQuote(s string) string {
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	return `"` + s + `"`
}
