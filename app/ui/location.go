package ui

import (
	"net/url"
	"strings"
	"sync"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// repaired remembers the fragments the app rewrote because the address was not valid URL
// escaping (a stray "%"): go-app cannot parse such an address and would stop, so the address
// is repaired before go-app reads it, and the operation page reports the link as malformed.
var repaired struct {
	sync.Mutex
	fragments map[string]bool
}

// GuardLocation repairs the page address now and whenever the user changes it (popstate and
// hashchange listeners registered before go-app's own). It does nothing on the server.
func GuardLocation() {
	if !app.IsClient {
		return
	}
	repairLocation()
	listener := app.FuncOf(func(app.Value, []app.Value) any {
		repairLocation()
		return nil
	})
	app.Window().Call("addEventListener", "popstate", listener)
	app.Window().Call("addEventListener", "hashchange", listener)
}

// repairLocation rewrites an unparseable address in place (no history entry).
func repairLocation() {
	href := app.Window().Get("location").Get("href").String()
	if _, err := url.Parse(href); err == nil {
		return
	}
	fixed := fixEscapes(href)
	if _, err := url.Parse(fixed); err != nil {
		fixed, _, _ = strings.Cut(href, "#")
		fixed = fixEscapes(fixed) + "#malformed"
	}
	h := app.Window().Get("history")
	h.Call("replaceState", h.Get("state"), "", fixed)
	if i := strings.IndexByte(fixed, '#'); i >= 0 {
		repaired.Lock()
		if repaired.fragments == nil {
			repaired.fragments = map[string]bool{}
		}
		repaired.fragments[fixed[i:]] = true
		repaired.Unlock()
	}
}

// WasRepaired reports whether a fragment (with "#") is the repair of a malformed address.
func WasRepaired(fragment string) bool {
	repaired.Lock()
	defer repaired.Unlock()
	return repaired.fragments[fragment]
}

// fixEscapes writes every "%" that does not start a valid escape as "%25".
func fixEscapes(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && (i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2])) {
			b.WriteString("%25")
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
