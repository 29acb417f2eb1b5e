package ui

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/fetch"
)

// This file holds what differs when the app is the static explorer (`loupe static`): the
// site's sub-path, and where requests go (decided once, in app/fetch).

// staticEnv is set to "1" in the pages `loupe static` writes; sandboxModuleEnv lists the
// sandbox modules' URLs there (fetch.Modules, as JSON).
const (
	staticEnv        = "LOUPE_STATIC"
	sandboxModuleEnv = "LOUPE_SANDBOX_WASM"
)

// StaticMode reports whether the page is the static explorer: no Loupe server answers.
func StaticMode() bool { return app.Getenv(staticEnv) == "1" }

// BasePath is the site's sub-path without a trailing slash ("/api"), "" at the root of a host.
// go-app names it GOAPP_ROOT_PREFIX, from the handler's resource resolver.
func BasePath() string { return strings.TrimRight(app.Getenv("GOAPP_ROOT_PREFIX"), "/") }

// Href is the address of an app page or file given root-relative ("/chat"), under the base.
func Href(path string) string {
	if b := BasePath(); b != "" {
		if path == "/" {
			return b + "/"
		}
		return b + path
	}
	return path
}

// StripBase turns a page's path back into a root-relative route.
func StripBase(path string) string {
	b := BasePath()
	if b == "" || !strings.HasPrefix(path, b) {
		return path
	}
	if rest := strings.TrimPrefix(path, b); rest == "" || strings.HasPrefix(rest, "/") {
		return "/" + strings.TrimPrefix(rest, "/")
	}
	return path
}

// ConfigureTransport tells the fetch layer how this page reaches the APIs.
func ConfigureTransport() {
	if !app.IsClient {
		return
	}
	modules, err := fetch.ParseModules(app.Getenv(sandboxModuleEnv))
	if err != nil {
		app.Log(err) // every Send then says that the page names no module for its API
	}
	fetch.Configure(fetch.Config{Static: StaticMode(), Base: BasePath(), Modules: modules})
}
