package history

import (
	"fmt"
	"strings"

	"loupe/app/catalog"
	"loupe/app/permalink"
	"loupe/app/request"
)

// Answer is the answer of an entry's request as the tab kept it for the session: what
// recording a walkthrough needs to carry the values an answer gave into the requests after it.
type Answer struct {
	// ContentType is the answer's Content-Type; Body its body.
	ContentType string `json:"c,omitempty"`
	Body        string `json:"b"`
}

// MaxAnswer bounds an answer a tab keeps: a larger one is not kept (a walkthrough's later
// requests then take no value from it).
const MaxAnswer = 256 << 10

// Exchange is an entry as the walkthrough recorder reads it (catalog.WalkExchange): its
// request read back from its form (the URL as sent, the operation's header parameters, the
// body) and its answer's status, with the answer's body when the tab kept it (answer nil:
// not kept). An entry whose request got no answer, or whose form was too large to keep,
// cannot be recorded: the error says so.
func Exchange(api *catalog.API, op *catalog.Operation, e Entry, answer *Answer) (catalog.WalkExchange, error) {
	what := e.Method + " " + e.URL
	switch {
	case e.Status == 0:
		return catalog.WalkExchange{}, fmt.Errorf("%s got no answer: record only requests that were answered", what)
	case e.Dropped:
		return catalog.WalkExchange{}, fmt.Errorf("%s: its form was too large to keep, so it cannot be sent again", what)
	}
	st, _, err := permalink.Decode(op, e.Form)
	if err != nil {
		return catalog.WalkExchange{}, fmt.Errorf("%s: its form cannot be read: %w", what, err)
	}
	st = Scrub(api, op, st) // as stored, but a form of an older Loupe may have kept more
	base := "/proxy/" + api.Slug
	req := request.Preview(op, base, st)
	if req == nil {
		return catalog.WalkExchange{}, fmt.Errorf("%s: its request cannot be built again", what)
	}
	ex := catalog.WalkExchange{API: api.Slug, OperationID: op.ID, URL: req.URL, Status: e.Status}
	for i := range op.Parameters {
		p := &op.Parameters[i]
		if vs := st.Params[request.Key(p)]; p.In == "header" && len(vs) > 0 && vs[0] != "" {
			if ex.Headers == nil {
				ex.Headers = map[string]string{}
			}
			ex.Headers[p.Name] = strings.Join(vs, ",")
		}
	}
	if len(req.Body) > 0 {
		ex.Body = string(req.Body)
		for _, h := range req.Headers {
			if strings.EqualFold(h.Name, "Content-Type") {
				ex.ContentType = h.Value
			}
		}
	}
	if answer != nil {
		ex.ResponseContentType, ex.ResponseBody = answer.ContentType, answer.Body
	}
	return ex, nil
}
