package chat

import (
	"net/url"
	"strings"

	"loupe/app/chatstream"
	"loupe/app/ui"
)

// chatLinkVersion starts a chat link's fragment, like the form links (app/permalink).
const chatLinkVersion = "v1"

// encodeChatLink puts the conversation settings and the draft message in a URL fragment
// (without "#"). Values equal to the defaults are left out. A key is never part of it: the
// server holds the chat API's key.
func encodeChatLink(s, def chatstream.Settings, draft string) string {
	q := url.Values{}
	set := func(name, v, d string) {
		if v != d {
			q.Set(name, v)
		}
	}
	set("model", s.Model, def.Model)
	set("system", s.System, def.System)
	set("tools", s.Tools, def.Tools)
	set("tool_choice", s.ToolChoice, def.ToolChoice)
	if s.Stream != def.Stream {
		q.Set("stream", ui.BoolText(s.Stream))
	}
	set("draft", draft, "")
	if len(q) == 0 {
		return chatLinkVersion
	}
	return chatLinkVersion + "&" + strings.ReplaceAll(q.Encode(), "+", "%20")
}

// decodeChatLink reads a fragment written by encodeChatLink (with or without "#") over the
// defaults. ok is false when the fragment is not a chat link; unknown names are ignored.
func decodeChatLink(frag string, def chatstream.Settings) (s chatstream.Settings, draft string, ok bool) {
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
	get("model", &s.Model)
	get("system", &s.System)
	get("tools", &s.Tools)
	get("tool_choice", &s.ToolChoice)
	if v := q.Get("stream"); v != "" {
		s.Stream = v == "true"
	}
	return s, q.Get("draft"), true
}
