package oauth

import (
	"strings"

	"loupe/app/fetch"
	"loupe/app/op"
)

func init() { op.AddErrorHint(scopeHint) }

// insufficientScopes reads a Bearer challenge (RFC 6750 §3) with error="insufficient_scope"
// from the response headers, as Google and the script sandbox send it with a 403, and returns
// its scope parameter: the scopes the call accepts, any one being enough. The proxy passes
// the upstream's challenge on as X-Upstream-WWW-Authenticate (a bare one would make the
// browser prompt for a password). Nil when there is no such challenge.
func insufficientScopes(headers []fetch.Header) []string {
	for _, h := range headers {
		name := strings.ToLower(h.Name)
		if name != "www-authenticate" && name != "x-upstream-www-authenticate" {
			continue
		}
		params := challengeParams(h.Value)
		if params["error"] == "insufficient_scope" && params["scope"] != "" {
			return strings.Fields(params["scope"])
		}
	}
	return nil
}

// challengeParams parses the auth-params of one challenge (`Bearer realm="x", error="y"`)
// into a map; quoted values may hold commas and escaped quotes.
func challengeParams(v string) map[string]string {
	out := map[string]string{}
	if i := strings.IndexByte(v, ' '); i >= 0 && !strings.Contains(v[:i], "=") {
		v = v[i+1:] // the scheme
	}
	for v = strings.TrimSpace(v); v != ""; v = strings.TrimLeft(v, ", ") {
		eq := strings.IndexByte(v, '=')
		if eq < 0 {
			break
		}
		key := strings.ToLower(strings.TrimSpace(v[:eq]))
		v = v[eq+1:]
		var val strings.Builder
		if strings.HasPrefix(v, `"`) {
			i := 1
			for ; i < len(v) && v[i] != '"'; i++ {
				if v[i] == '\\' && i+1 < len(v) {
					i++
				}
				val.WriteByte(v[i])
			}
			v = v[min(i+1, len(v)):]
		} else {
			end := strings.IndexByte(v, ',')
			if end < 0 {
				end = len(v)
			}
			val.WriteString(strings.TrimSpace(v[:end]))
			v = v[end:]
		}
		out[key] = val.String()
	}
	return out
}

// scopeHint says, for a response whose challenge names the scopes the call needs, which scope
// to add to the grant; empty when the response names none.
func scopeHint(headers []fetch.Header) string {
	scopes := insufficientScopes(headers)
	if len(scopes) == 0 {
		return ""
	}
	return "the access token Send went with lacks the scope this call needs: add " +
		strings.Join(shortAll(scopes), " or ") +
		". Sign in again with it (the link by “Needs …” above the form keeps the scopes you have and adds it)."
}
