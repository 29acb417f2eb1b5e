package server

import (
	"crypto/sha256"
	"encoding/base64"
	"strings"
)

// A static host sends none of the headers the Loupe server sets on its pages (access.AppCSP,
// X-Frame-Options), so the static explorer's pages carry what they can themselves: a <meta>
// Content-Security-Policy first in their <head>, and a frame guard where no header can refuse
// framing.

// unframedStyle hides the page until frameGuard has seen that it is not framed: a page framed
// by another site, even one whose sandbox runs no script, shows nothing to be clicked.
const unframedStyle = `html{display:none!important}`

// frameGuard shows the page when it is the top window; framed, it stops loading, so that the
// app never starts inside another site's frame, and tries to take the top window to itself
// (browsers allow a frame that only after a click in it).
const frameGuard = `if (window.top === window.self) { document.getElementById("loupe-unframed").remove(); } ` +
	`else { try { window.top.location.replace(window.self.location.href); } catch (e) {} window.stop(); }`

// staticPageHead is the static pages' head (site.Options.PageHead): the policy, then the guard.
var staticPageHead = `<meta http-equiv="Content-Security-Policy" content="` + staticCSP + `">` +
	`<style id="loupe-unframed">` + unframedStyle + `</style><script>` + frameGuard + `</script>`

// staticCSP is access.AppCSP for the static explorer, in a <meta>: its inline scripts and style
// by hash (the frame guard, the file:// warning), calls to the site itself and to the real APIs
// a user points a page at (any http or https server: the browser's CORS rules apply), and
// without frame-ancestors, which a <meta> cannot carry (the frame guard stands in).
var staticCSP = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval' " + hashOf(frameGuard) + " " + hashOf(fileWarningScript) + "; " +
	"style-src 'self' " + hashOf(unframedStyle) + "; style-src-attr 'unsafe-inline'; img-src 'self' data: https:; font-src 'self'; " +
	"connect-src 'self' https: http:; worker-src 'self'; manifest-src 'self'; frame-src 'self'; object-src 'none'; " +
	"base-uri 'none'; form-action 'self'"

// hashOf is the CSP source of an inline script or style's text.
func hashOf(text string) string {
	sum := sha256.Sum256([]byte(text))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

// fileWarningScript is the text of fileWarning's <script>.
var fileWarningScript = strings.TrimSuffix(strings.TrimPrefix(fileWarning, "<script>"), "</script>")
