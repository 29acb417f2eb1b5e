package app

import (
	"net/url"
	"strings"

	"loupe/app/ui"
)

// chatLinkVersion starts a chat link's fragment, like the form links (app/permalink).
const chatLinkVersion = "v1"

// encodeChatLink puts the conversation settings and the draft message in a URL fragment
// (without "#"). Values equal to the defaults are left out. A key is never part of it: the
// server holds the chat API's key.
func encodeChatLink(s, def chatSettings, draft string) string {
	q := url.Values{}
	set := func(name, v, d string) {
		if v != d {
			q.Set(name, v)
		}
	}
	set("model", s.model, def.model)
	set("system", s.system, def.system)
	set("tools", s.tools, def.tools)
	set("tool_choice", s.toolChoice, def.toolChoice)
	if s.stream != def.stream {
		q.Set("stream", ui.BoolText(s.stream))
	}
	set("draft", draft, "")
	if len(q) == 0 {
		return chatLinkVersion
	}
	return chatLinkVersion + "&" + strings.ReplaceAll(q.Encode(), "+", "%20")
}

// decodeChatLink reads a fragment written by encodeChatLink (with or without "#") over the
// defaults. ok is false when the fragment is not a chat link; unknown names are ignored.
func decodeChatLink(frag string, def chatSettings) (s chatSettings, draft string, ok bool) {
	frag = strings.TrimPrefix(frag, "#")
	rest, found := strings.CutPrefix(frag, chatLinkVersion)
	if !found || (rest != "" && rest[0] != '&') {
		return def, "", false
	}
	q, err := url.ParseQuery(strings.TrimPrefix(rest, "&"))
	if err != nil {
		return def, "", false
	}
	s = def
	get := func(name string, to *string) {
		if v, has := q[name]; has && len(v) > 0 {
			*to = v[0]
		}
	}
	get("model", &s.model)
	get("system", &s.system)
	get("tools", &s.tools)
	get("tool_choice", &s.toolChoice)
	if v := q.Get("stream"); v != "" {
		s.stream = v == "true"
	}
	return s, q.Get("draft"), true
}
