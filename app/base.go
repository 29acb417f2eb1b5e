package app

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/fetch"
)

// This file holds what differs when the app is the static explorer (`loupe static`): the
// site's sub-path, and where requests go (decided once, in app/fetch).

// staticEnv is set to "1" in the pages `loupe static` writes; sandboxModuleEnv names the
// sandbox module's URL there.
const (
	staticEnv        = "LOUPE_STATIC"
	sandboxModuleEnv = "LOUPE_SANDBOX_WASM"
)

// staticMode reports whether the page is the static explorer: no Loupe server answers.
func staticMode() bool { return app.Getenv(staticEnv) == "1" }

// basePath is the site's sub-path without a trailing slash ("/api"), "" at the root of a host.
// go-app names it GOAPP_ROOT_PREFIX, from the handler's resource resolver.
func basePath() string { return strings.TrimRight(app.Getenv("GOAPP_ROOT_PREFIX"), "/") }

// href is the address of an app page or file given root-relative ("/chat"), under the base.
func href(path string) string {
	if b := basePath(); b != "" {
		if path == "/" {
			return b + "/"
		}
		return b + path
	}
	return path
}

// stripBase turns a page's path back into a root-relative route.
func stripBase(path string) string {
	b := basePath()
	if b == "" || !strings.HasPrefix(path, b) {
		return path
	}
	if rest := strings.TrimPrefix(path, b); rest == "" || strings.HasPrefix(rest, "/") {
		return "/" + strings.TrimPrefix(rest, "/")
	}
	return path
}

// configureTransport tells the fetch layer how this page reaches the APIs.
func configureTransport() {
	if !app.IsClient {
		return
	}
	fetch.Configure(fetch.Config{Static: staticMode(), Base: basePath(), SandboxModule: app.Getenv(sandboxModuleEnv)})
}
