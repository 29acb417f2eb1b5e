// Package permalink keeps an operation's form state in the URL fragment, so that a reload
// restores the form and a link shares it.
//
// The fragment is versioned, compact and readable: "v1", then &-separated name=value pairs.
// A query parameter appears under its own name (limit=10); a repeatable one repeats
// (types=Person&types=Place); other locations are prefixed (path:scriptId=abc,
// header:X-Trace=1), and a multipart part's documented header is part:<field>:<header>. The
// content type the body is sent as appears as body-type=<type> when it is not the body's
// default. The body appears as json=<compact JSON> when it was indented the way the form
// indents it (restored indented), as body=<text> otherwise, and not at all while it is the
// documented example. Spaces are written as +, and only what must be is percent-encoded.
//
// A link never holds a credential: parameters named like one (see IsCredential) are dropped when
// encoding and ignored when decoding.
package permalink

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"loupe/app/catalog"
	"loupe/app/request"
)

// Version is the current fragment version, its first token.
const Version = "v1"

// MaxURL is the longest address a link may be, in bytes: Chrome refuses to open one longer
// than 2 MiB. A form whose link would be longer leaves its body out and says so.
const MaxURL = 2 << 20

// ErrMalformed is returned (wrapped) when a fragment cannot be read at all.
var ErrMalformed = errors.New("malformed link")

// ErrOutdated is returned (wrapped) when a fragment comes from another version of Loupe or
// names parameters the operation no longer has.
var ErrOutdated = errors.New("outdated link")

// ErrNoBody is returned (wrapped) when a fragment says its body was too large to carry.
var ErrNoBody = errors.New("link without its body")

// bodyLeftOut is the name EncodeWithin writes in place of a body too large for a link; its
// value is the body's size in bytes.
const bodyLeftOut = "body-left-out"

// bodyTypeName is the fragment's name of the content type the body is sent as, written only
// when it is not the body's default.
const bodyTypeName = "body-type"

// Encode returns the fragment (without "#") for st on op.
func Encode(op *catalog.Operation, st request.State) string {
	var b strings.Builder
	b.WriteString(Version)
	for i := range op.Parameters {
		p := &op.Parameters[i]
		if IsCredential(p.Name) {
			continue
		}
		name := fragmentName(p)
		for _, v := range st.Params[request.Key(p)] {
			if v == "" {
				continue
			}
			b.WriteByte('&')
			b.WriteString(escape(name))
			b.WriteByte('=')
			b.WriteString(escape(v))
		}
	}
	writePartHeaders(&b, op, st)
	if op.Body != nil {
		if st.BodyType != "" && st.BodyType != op.Body.ContentType {
			b.WriteString("&" + bodyTypeName + "=")
			b.WriteString(escape(st.BodyType))
		}
		initial := request.InitialBody(request.BodyOf(op, st))
		if strings.TrimSpace(st.Body) != strings.TrimSpace(initial) {
			if compact, ok := indentedJSON(st.Body); ok {
				b.WriteString("&json=")
				b.WriteString(escape(compact))
			} else {
				b.WriteString("&body=")
				b.WriteString(escape(st.Body))
			}
		}
	}
	return b.String()
}

// EncodeWithin is Encode when the address, the prefix of length prefix (origin and path) then
// "#" and the fragment, stays within MaxURL. Otherwise the body is left out, and the fragment
// says so (Decode names it); dropped reports that.
func EncodeWithin(op *catalog.Operation, st request.State, prefix int) (frag string, dropped bool) {
	frag = Encode(op, st)
	if prefix+1+len(frag) <= MaxURL || op.Body == nil {
		return frag, false
	}
	without := st.Clone()
	without.Body = request.InitialBody(request.BodyOf(op, st))
	return Encode(op, without) + "&" + bodyLeftOut + "=" + strconv.Itoa(len(st.Body)), true
}

// Decode reads a fragment (with or without "#") for op. An empty fragment returns ok false and
// no error: the form keeps its initial state. Otherwise Decode restores every value it can
// read and that still fits op, and names the rest in err, which wraps ErrMalformed (a pair it
// cannot read) or ErrOutdated (another version of the format, or a parameter the operation no
// longer has), or both; its text is for the page's notice. ok reports whether st holds the
// link's state (then err may still name what was left out); a fragment that is no link at all
// (it does not start with a version) returns ok false.
func Decode(op *catalog.Operation, fragment string) (st request.State, ok bool, err error) {
	fragment = strings.TrimPrefix(fragment, "#")
	if fragment == "" {
		return request.State{}, false, nil
	}
	parts := strings.Split(fragment, "&")
	var outdated, malformed []string
	switch v := parts[0]; {
	case v == Version:
	case len(v) > 1 && v[0] == 'v' && strings.Trim(v[1:], "0123456789") == "":
		// Read it as this version reads links: what still fits is restored, the rest named.
		outdated = append(outdated, "it was made by another version of Loupe ("+v+", this one reads "+Version+")")
	default:
		return request.State{}, false, fmt.Errorf("%w: it does not start with %s", ErrMalformed, Version)
	}
	st = request.State{Params: map[string][]string{}}
	if op.Body != nil {
		st.Body = request.InitialBody(op.Body)
	}
	var unknown, left []string
	bodyGiven := false
	for _, part := range parts[1:] {
		if part == "" {
			continue
		}
		rawName, rawValue, found := strings.Cut(part, "=")
		name, err1 := unescape(rawName)
		value, err2 := unescape(rawValue)
		if !found || err1 != nil || err2 != nil || name == "" {
			malformed = append(malformed, fmt.Sprintf("cannot read %q", truncate(part)))
			continue
		}
		switch name {
		case bodyLeftOut:
			left = append(left, "its request body ("+sizeText(value)+") was too large for a link and was left out, so the form shows the example")
			continue
		case bodyTypeName:
			switch {
			case op.Body == nil:
				unknown = append(unknown, "the request body")
			case !op.Body.Offers(value):
				unknown = append(unknown, "body of type "+value)
			case !bodyGiven:
				st.SetBodyType(op, value)
			default:
				st.BodyType = value
			}
			continue
		case "json", "body":
			if op.Body == nil {
				unknown = append(unknown, "the request body")
				continue
			}
			bodyGiven = true
			var out bytes.Buffer
			if name == "json" && json.Indent(&out, []byte(value), "", "  ") == nil {
				st.Body = out.String()
				continue
			}
			if name == "json" {
				// Kept as the text it is, for the body editor to show what is wrong with it.
				malformed = append(malformed, "its request body is not JSON (restored as written)")
			}
			st.Body = value
			continue
		}
		if key, isPart, known := partHeaderOf(op, name); isPart {
			switch {
			case !known:
				unknown = append(unknown, name)
			case !IsCredential(name[strings.LastIndex(name, ":")+1:]):
				st.Params[key] = append(st.Params[key], value)
			}
			continue
		}
		if IsCredential(name[strings.Index(name, ":")+1:]) {
			continue
		}
		p := paramOf(op, name)
		if p == nil {
			unknown = append(unknown, name)
			continue
		}
		key := request.Key(p)
		st.Params[key] = append(st.Params[key], value)
	}
	if len(unknown) > 0 {
		outdated = append(outdated, "this operation has no "+strings.Join(unknown, ", "))
	}
	switch {
	case len(left) > 0:
		err = fmt.Errorf("%w: %s", ErrNoBody, strings.Join(append(append(left, malformed...), outdated...), "; "))
	case len(malformed) > 0 && len(outdated) > 0:
		err = fmt.Errorf("%w: %s; %w: %s", ErrMalformed, strings.Join(malformed, "; "), ErrOutdated, strings.Join(outdated, "; "))
	case len(malformed) > 0:
		err = fmt.Errorf("%w: %s", ErrMalformed, strings.Join(malformed, "; "))
	case len(outdated) > 0:
		err = fmt.Errorf("%w: %s", ErrOutdated, strings.Join(outdated, "; "))
	}
	return st, true, err
}

// paramOf returns the parameter a fragment name stands for: the one written so (fragmentName),
// else the only parameter of that name in another location (a link made before the document
// moved it, say from the query to a header), else nil.
func paramOf(op *catalog.Operation, name string) *catalog.Parameter {
	for i := range op.Parameters {
		if p := &op.Parameters[i]; fragmentName(p) == name {
			return p
		}
	}
	bare := name[strings.Index(name, ":")+1:]
	var found *catalog.Parameter
	for i := range op.Parameters {
		if p := &op.Parameters[i]; p.Name == bare {
			if found != nil {
				return nil // two locations hold that name: which one is unknown
			}
			found = p
		}
	}
	return found
}

// fragmentName is a parameter's name in the fragment: bare for a query parameter, in:name
// otherwise and for query names that would be ambiguous.
func fragmentName(p *catalog.Parameter) string {
	if p.In == "query" && p.Name != "json" && p.Name != "body" && p.Name != bodyTypeName && !strings.Contains(p.Name, ":") {
		return p.Name
	}
	return p.In + ":" + p.Name
}

// indentedJSON returns the compact form of text when text is JSON indented exactly as the form
// indents it, so decoding restores the same text.
func indentedJSON(text string) (string, bool) {
	var compact bytes.Buffer
	if json.Compact(&compact, []byte(text)) != nil {
		return "", false
	}
	var indented bytes.Buffer
	if json.Indent(&indented, compact.Bytes(), "", "  ") != nil || indented.String() != text {
		return "", false
	}
	return compact.String(), true
}

// sizeText writes a byte count given as text: "3.1 MB".
func sizeText(v string) string {
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return "its size unknown"
	}
	if n >= 1e6 {
		return strconv.FormatFloat(float64(n)/1e6, 'f', 1, 64) + " MB"
	}
	return strconv.FormatFloat(float64(n)/1e3, 'f', 1, 64) + " kB"
}

func truncate(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// IsCredential reports whether a parameter or header name looks like it carries a credential:
// authorization, cookie, key, api key, token, access token, password, secret and the like.
// Paging tokens (pageToken, nextPageToken, syncToken) are not credentials.
func IsCredential(name string) bool {
	n := strings.ToLower(name)
	n = strings.NewReplacer("-", "", "_", "", ".", "").Replace(n)
	switch n {
	case "key", "token", "auth", "authorization", "proxyauthorization", "cookie", "setcookie",
		"accesstoken", "idtoken", "refreshtoken", "bearer", "apikey", "xapikey", "password",
		"passwd", "secret", "clientsecret", "session", "sessionid", "oauthtoken", "xauthtoken":
		return true
	}
	for _, suffix := range []string{"apikey", "password", "secret", "accesstoken", "authtoken", "authorization"} {
		if strings.HasSuffix(n, suffix) {
			return true
		}
	}
	return false
}

// Credentials returns the names in a fragment that look like credentials, which Decode ignores,
// so that the page can say it ignored them.
func Credentials(fragment string) []string {
	var names []string
	for _, part := range strings.Split(strings.TrimPrefix(fragment, "#"), "&") {
		rawName, _, _ := strings.Cut(part, "=")
		name, err := unescape(rawName)
		if err != nil {
			continue
		}
		if IsCredential(name[strings.Index(name, ":")+1:]) {
			names = append(names, name)
		}
	}
	return names
}
