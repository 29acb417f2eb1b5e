package markdown

import (
	"net/url"
	"path"
	"strings"
)

// internalPrefixes are Loupe's paths that act with the server's credentials: the proxy, and
// the sandboxes (whose state a GET may read).
var internalPrefixes = []string{"/proxy", "/sandbox"}

// assetPrefixes are paths under internalPrefixes that serve static files, not API calls: the
// docs sandbox's images, which its embed pages show as the real service's pages show theirs.
// They hold no state and take no credential (server/sandbox/docs/images.go).
var assetPrefixes = []string{"/sandbox/docs/_images/"}

// Internal reports whether a URL from an answer (a link or an image in a chat answer, an entity
// card's image) leads to Loupe's proxy or sandboxes: such a URL is never rendered live, or
// clicking a link or merely showing an image would call an API with the server's credential.
// The path is read as a browser would resolve it (dot segments removed, percent-escapes and
// backslashes as slashes); any host counts, since Loupe may be reached under several names.
func Internal(raw string) bool {
	s := strings.TrimSpace(raw)
	s = strings.ReplaceAll(s, `\`, "/")
	u, err := url.Parse(s)
	if err != nil {
		return true // not a URL a browser reads the way we do: not worth the risk
	}
	p := u.Path
	if dec, err := url.PathUnescape(u.EscapedPath()); err == nil {
		p = dec
	}
	if p == "" {
		return false
	}
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	p = path.Clean(p)
	for _, pre := range assetPrefixes {
		if strings.HasPrefix(p, pre) && u.RawQuery == "" {
			return false
		}
	}
	for _, pre := range internalPrefixes {
		if strings.EqualFold(p, pre) || strings.HasPrefix(strings.ToLower(p), pre+"/") {
			return true
		}
	}
	return false
}
