package op

import (
	"loupe/app/catalog"
	"loupe/app/snippet"
)

// OAuthStatusState is the go-app state holding the last status fetched, so that the operation
// page's request preview and the API page's Credentials line show the credential Send goes
// with (the grant's bearer token, or the fallback key while signed out).
const OAuthStatusState = "oauth-status"

// HeldNow returns the credentials the proxy adds to the requests of op (nil: of the API as a
// whole) given st, the last sign-in status fetched: for an API that signs in with OAuth while
// the user has not, the fallback key (or nothing), not the bearer token the document names;
// what the document names otherwise, and before any status is known (st is another API's).
func HeldNow(a *catalog.API, op *catalog.Operation, st catalog.OAuthStatus) []snippet.Credential {
	if a != nil && st.API == a.Slug && !st.SignedIn {
		if st.FallbackParam == "" {
			return nil
		}
		return []snippet.Credential{{In: "query", Name: st.FallbackParam, Value: snippet.HeldValue}}
	}
	return snippet.Held(a, op)
}
