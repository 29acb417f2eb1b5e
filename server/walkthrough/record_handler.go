package walkthrough

import (
	"fmt"
	"net/http"
	"strings"
	"unicode"

	"loupe/app/catalog"
	"loupe/server/walkthrough/record"
)

// maxRecorded bounds the requests one recorded walkthrough holds.
const maxRecorded = 100

// serveRecord writes an Arazzo document of the requests the request carries (the history's
// "Save as walkthrough"), as YAML, and loads it back with the same loader as any document, so
// that what it gives is known to run.
func (s *Service) serveRecord(w http.ResponseWriter, r *http.Request) {
	var req catalog.WalkRecordRequest
	if !decode(w, r, &req) {
		return
	}
	cat, err := s.Catalog(r.Context())
	if err != nil {
		answer(w, http.StatusServiceUnavailable, catalog.WalkRecordAnswer{Error: unavailable(err)})
		return
	}
	ans := Record(cat, req)
	if ans.Error != "" {
		answer(w, http.StatusOK, ans)
		return
	}
	wt, problems, err := s.load(r.Context(), ans.Document, ans.Name, req.Origin)
	switch {
	case err != nil:
		answer(w, http.StatusServiceUnavailable, catalog.WalkRecordAnswer{Error: unavailable(err)})
		return
	case len(problems) > 0:
		var msgs []string
		for _, p := range problems {
			msgs = append(msgs, fmt.Sprintf("line %d: %s", p.Line, p.Message))
		}
		ans.Error = "The recorded walkthrough does not load, which is a bug of Loupe's recorder: " + strings.Join(msgs, "; ")
		answer(w, http.StatusOK, ans)
		return
	}
	cw, err := CompileOne(wt)
	if err != nil {
		answer(w, http.StatusOK, catalog.WalkRecordAnswer{Error: err.Error()})
		return
	}
	ans.Walkthrough = &cw
	answer(w, http.StatusOK, ans)
}

// Record writes the document of a record request: each exchange's operation found in cat, its
// URL read back into the operation's parameters, and the source descriptions naming
// origin/openapi/<slug>.yaml. The answer's Error says what could not be recorded.
func Record(cat *catalog.Catalog, req catalog.WalkRecordRequest) catalog.WalkRecordAnswer {
	if len(req.Exchanges) > maxRecorded {
		return catalog.WalkRecordAnswer{Error: fmt.Sprintf("%d requests are more than a walkthrough holds (%d): pick fewer", len(req.Exchanges), maxRecorded)}
	}
	origin := strings.TrimRight(req.Origin, "/")
	opts := record.Options{Title: req.Title, Sources: map[string]string{}}
	var exs []record.Exchange
	for i, ex := range req.Exchanges {
		api := cat.API(ex.API)
		if api == nil {
			return catalog.WalkRecordAnswer{Error: fmt.Sprintf("request %d is of API %q, which this Loupe does not have", i+1, ex.API)}
		}
		op := api.Operation(ex.OperationID)
		if op == nil {
			return catalog.WalkRecordAnswer{Error: fmt.Sprintf("request %d is of operation %s, which %s no longer has", i+1, ex.OperationID, api.Title)}
		}
		params, err := record.Sent(op.Path, "/proxy/"+api.Slug, ex.URL, ex.Headers)
		if err != nil {
			return catalog.WalkRecordAnswer{Error: fmt.Sprintf("request %d (%s): %v", i+1, op.ID, err)}
		}
		if origin != "" {
			opts.Sources[api.Slug] = origin + "/openapi/" + api.Slug + ".yaml"
		}
		exs = append(exs, record.Exchange{API: api.Slug, OperationID: op.ID, Method: op.Method, Path: op.Path, Params: params,
			ContentType: ex.ContentType, Body: ex.Body, Status: ex.Status, ResponseContentType: ex.ResponseContentType, ResponseBody: ex.ResponseBody})
	}
	doc, err := record.Record(exs, opts)
	if err != nil {
		return catalog.WalkRecordAnswer{Error: err.Error()}
	}
	data, err := doc.YAML()
	if err != nil {
		return catalog.WalkRecordAnswer{Error: "writing the document: " + err.Error()}
	}
	return catalog.WalkRecordAnswer{Document: string(data), Name: slugOf(doc.Info.Title) + ".arazzo.yaml"}
}

// slugOf is a title as a file name: lower case letters and digits, words joined by dashes.
func slugOf(title string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(title) {
		switch {
		case unicode.IsLetter(r) && r < unicode.MaxASCII, unicode.IsDigit(r):
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		default:
			dash = true
		}
		if b.Len() >= 60 {
			break
		}
	}
	if b.Len() == 0 {
		return "recorded-walkthrough"
	}
	return b.String()
}
