package chat

import (
	"encoding/json"
	"net/url"
	"strings"

	"loupe/app/chatstream"
	"loupe/app/ui"
)

// chatLinkVersion starts a chat link's fragment, like the form links (app/permalink).
const chatLinkVersion = "v1"

// encodeChatLink puts the conversation settings, the conversation so far (msgs, as JSON) and the
// draft message in a URL fragment (without "#"). Values equal to the defaults are left out. A
// key is never part of it: the server holds the chat API's key.
func encodeChatLink(s, def chatstream.Settings, draft string, msgs []chatstream.LinkMessage) string {
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
	if len(msgs) > 0 {
		b, _ := json.Marshal(msgs) // plain strings only: it cannot fail
		q.Set("msgs", string(b))
	}
	if len(q) == 0 {
		return chatLinkVersion
	}
	return chatLinkVersion + "&" + strings.ReplaceAll(q.Encode(), "+", "%20")
}

// chatLink is what a chat link holds.
type chatLink struct {
	settings chatstream.Settings
	draft    string
	msgs     []chatstream.LinkMessage
	// problem says what the link held that could not be read (its conversation), "" when all was.
	problem string
}

// decodeChatLink reads a fragment written by encodeChatLink (with or without "#") over the
// defaults. ok is false when the fragment is not a chat link; unknown names are ignored, and
// what cannot be read is left out and named in problem, the rest kept.
func decodeChatLink(frag string, def chatstream.Settings) (l chatLink, ok bool) {
	frag = strings.TrimPrefix(frag, "#")
	rest, found := strings.CutPrefix(frag, chatLinkVersion)
	if !found || (rest != "" && rest[0] != '&') {
		return chatLink{settings: def}, false
	}
	q, err := url.ParseQuery(strings.TrimPrefix(rest, "&"))
	if err != nil {
		// ParseQuery keeps every pair it could read and reports the first it could not.
		l.problem = "part of this link is not valid URL encoding, so it was left out"
	}
	s := def
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
	l.settings, l.draft = s, q.Get("draft")
	if m := q.Get("msgs"); m != "" {
		if err := json.Unmarshal([]byte(m), &l.msgs); err != nil {
			l.msgs, l.problem = nil, "this link's conversation could not be read, so the chat starts empty"
		}
	}
	return l, true
}
