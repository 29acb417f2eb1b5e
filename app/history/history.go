// Package history keeps the requests a browser sent: the newest first, at most Max, each with
// its method, operation, status, time and the filled form as a permalink fragment. An entry
// never holds a credential (the form's credential fields are dropped before it is made) and
// never a response body. The browser keeps the list in localStorage (app/op/history_store.go);
// the answers' bodies, which recording a walkthrough needs, it keeps apart, in the tab's
// sessionStorage only, for the session (app/op/history_answers.go; see Answer). This package
// has no syscall/js, so it is tested natively.
package history

import (
	"encoding/json"
	"net/url"
	"strconv"
	"strings"

	"loupe/app/catalog"
	"loupe/app/permalink"
	"loupe/app/request"
)

// Max is how many requests the history keeps; an older one is dropped.
const Max = 200

// Entry is one request sent.
type Entry struct {
	// ID names the entry, for the answer the tab keeps of it for the session (see Answer);
	// "" for an entry stored before entries had one.
	ID string `json:"id,omitempty"`
	// Time is when it was sent, in milliseconds since the Unix epoch.
	Time int64 `json:"t"`
	// API and Op name the operation: its API's slug and operationId.
	API string `json:"api"`
	Op  string `json:"op"`
	// Method and URL are the request line, the URL without credentials (/proxy/<slug>/…).
	Method string `json:"m"`
	URL    string `json:"u"`
	// Status is the answer's HTTP status, 0 when none came; Error says why (cancelled, network).
	Status int    `json:"s"`
	Error  string `json:"e,omitempty"`
	// Millis is how long the request took.
	Millis int64 `json:"ms"`
	// Bytes is the size of the response body: the body itself is never kept.
	Bytes int `json:"b,omitempty"`
	// Form is the filled form as a permalink fragment (without "#"): the page reopens it.
	// "" with Dropped set when the form was larger than MaxForm.
	Form    string `json:"f"`
	Dropped bool   `json:"d,omitempty"`
}

// MaxForm bounds the form an entry keeps, so that 200 entries fit in the browser's storage.
const MaxForm = 32 << 10

// New returns the entry of a request of op (of api) sent from form state st to base
// (/proxy/<slug>): the form's credential fields are dropped first, from the form and the URL:
// those the API's security schemes name, and those named like a credential.
func New(api *catalog.API, op *catalog.Operation, base string, st request.State) Entry {
	clean := Scrub(api, op, st)
	e := Entry{API: api.Slug, Op: op.ID, Method: op.Method, Form: permalink.Encode(op, clean)}
	if req := request.Preview(op, base, clean); req != nil {
		e.Method, e.URL = req.Method, req.URL
	}
	return e.capped()
}

// NewView returns the entry of a request an operation's own view sent (the chat), whose page
// reopens it from form, the view's own link fragment: it must hold no credential.
func NewView(api *catalog.API, op *catalog.Operation, url, form string) Entry {
	return Entry{API: api.Slug, Op: op.ID, Method: op.Method, URL: url, Form: form}.capped()
}

// Sent returns the entry of a request of op sent to rawURL (base, "/proxy/<slug>", then the
// path and query) with body, by a page that sends without a form (the script workspace): the
// URL is read back into the form that sends it (FormOf), so that reopening the entry opens
// op's form filled as sent. Like New, it drops credentials.
func Sent(api *catalog.API, op *catalog.Operation, base, rawURL, body string) Entry {
	return New(api, op, base, FormOf(op, base, rawURL, body))
}

// FormOf reads a request of op sent to rawURL with body back into its form: the segments of
// the URL's path (after base) fill op's path parameters where op's path template names them,
// the query fills its query parameters, and body is the body.
func FormOf(op *catalog.Operation, base, rawURL, body string) request.State {
	st := request.State{Params: map[string][]string{}, Body: body}
	u, err := url.Parse(rawURL)
	if err != nil {
		return st
	}
	sent := strings.Split(strings.TrimPrefix(u.EscapedPath(), base), "/")
	tmpl := strings.Split(op.Path, "/")
	if len(sent) == len(tmpl) {
		for i, seg := range tmpl {
			open, end := strings.IndexByte(seg, '{'), strings.IndexByte(seg, '}')
			if open < 0 || end < open {
				continue
			}
			before, after := seg[:open], seg[end+1:]
			if v, ok := strings.CutPrefix(sent[i], before); ok && strings.HasSuffix(v, after) {
				if v, err := url.PathUnescape(strings.TrimSuffix(v, after)); err == nil {
					st.Params["path:"+seg[open+1:end]] = []string{v}
				}
			}
		}
	}
	q := u.Query()
	for i := range op.Parameters {
		if p := &op.Parameters[i]; p.In == "query" && len(q[p.Name]) > 0 {
			st.Params[request.Key(p)] = q[p.Name]
		}
	}
	return st
}

// capped drops a form larger than MaxForm.
func (e Entry) capped() Entry {
	if len(e.Form) > MaxForm {
		e.Form, e.Dropped = "", true
	}
	return e
}

// Scrub returns st without the parameters that carry a credential: those named like one
// (permalink.IsCredential) and those an API security scheme sends its key in.
func Scrub(api *catalog.API, op *catalog.Operation, st request.State) request.State {
	out := st.Clone()
	secret := map[string]bool{}
	if api != nil {
		for _, s := range api.Security {
			switch {
			case s.Type == "apiKey" && s.ParamName != "":
				secret[s.In+":"+strings.ToLower(s.ParamName)] = true
			case s.Type == "http" || s.Type == "oauth2" || s.Type == "openIdConnect":
				secret["header:authorization"] = true
			}
		}
	}
	for i := range op.Parameters {
		p := &op.Parameters[i]
		if permalink.IsCredential(p.Name) || secret[p.In+":"+strings.ToLower(p.Name)] {
			delete(out.Params, request.Key(p))
		}
	}
	return out
}

// Add returns list with e first, at most Max entries.
func Add(list []Entry, e Entry) []Entry {
	out := make([]Entry, 0, min(len(list)+1, Max))
	out = append(out, e)
	for _, old := range list {
		if len(out) == Max {
			break
		}
		out = append(out, old)
	}
	return out
}

// Search returns the entries matching every word of query, case-insensitively, in the API,
// operation, method, URL, status or error; all of them for a blank query.
func Search(list []Entry, query string) []Entry {
	words := strings.Fields(strings.ToLower(query))
	if len(words) == 0 {
		return list
	}
	var out []Entry
	for _, e := range list {
		text := strings.ToLower(strings.Join([]string{e.API, e.Op, e.Method, e.URL, strconv.Itoa(e.Status), e.Error}, " "))
		all := true
		for _, w := range words {
			if !strings.Contains(text, w) {
				all = false
				break
			}
		}
		if all {
			out = append(out, e)
		}
	}
	return out
}

// Decode reads a stored list; anything unreadable gives an empty list.
func Decode(text string) []Entry {
	var list []Entry
	if json.Unmarshal([]byte(text), &list) != nil {
		return nil
	}
	if len(list) > Max {
		list = list[:Max]
	}
	return list
}

// Encode writes a list for storage.
func Encode(list []Entry) string {
	b, _ := json.Marshal(list)
	return string(b)
}

// Link is the page address that reopens e's request in its form (root-relative).
func (e Entry) Link() string {
	link := "/" + e.API + "/" + e.Op
	if e.Form != "" {
		link += "#" + e.Form
	}
	return link
}
