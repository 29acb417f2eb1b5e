package fromdoc

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	v3 "github.com/pb33f/libopenapi/datamodel/high/v3"
)

// answer is one response, ready to write. Answers are cached and shared: never change one.
type answer struct {
	status int
	header http.Header
	body   []byte
}

// write sends the answer (no body for HEAD).
func (a *answer) write(w http.ResponseWriter, r *http.Request) {
	for k, vs := range a.header {
		w.Header()[k] = vs
	}
	if len(a.body) > 0 {
		w.Header().Set("Content-Length", strconv.Itoa(len(a.body)))
	}
	w.WriteHeader(a.status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(a.body)
	}
}

// reply is what to answer: a documented response (code), in a media type, with a value
// (nil: make one from the schema, or use the example the preferences name).
type reply struct {
	code  string // as documented: 200, 2XX, default
	media string // "" when the response has no content
	value any
	set   bool // value is given (it may be JSON null)
}

// pickCode chooses the documented response to answer: the one Prefer: code names, else the
// operation's success (operation.successCode). A code the operation does not document is a
// 400 problem naming the ones it does.
func (o *operation) pickCode(pref preferences) (code string, status int, p *problem) {
	codes := o.codes()
	if pref.code == "" {
		code = o.successCode()
	} else {
		want := pref.code
		for _, c := range codes {
			if c == want {
				code = c
			}
		}
		if code == "" && len(want) == 3 {
			for _, c := range codes {
				if strings.EqualFold(c, want[:1]+"XX") {
					code = c
				}
			}
		}
		if code == "" && slices.Contains(codes, "default") {
			code = "default"
		}
		if code == "" {
			return "", 0, &problem{Status: http.StatusBadRequest, Title: "Undocumented response",
				Detail: fmt.Sprintf("Prefer: code=%s asks for a response %s (%s %s) does not document; it documents %s", want, o.ID, o.Method, o.Path, strings.Join(codes, ", ")),
				Errors: []fieldError{{In: "header", Name: "Prefer", Problem: "code=" + want + " is not documented", Expected: "code= one of " + strings.Join(codes, ", ")}}}
		}
		if n, err := strconv.Atoi(want); err == nil {
			status = n
		}
	}
	if code == "" {
		return "", http.StatusNoContent, nil // no response documented at all
	}
	if status == 0 {
		status = statusOf(code)
	}
	return code, status, nil
}

// statusOf turns a documented code into a status: 2XX is 200, default is 200.
func statusOf(code string) int {
	if n, err := strconv.Atoi(code); err == nil {
		return n
	}
	if len(code) == 3 && (code[1] == 'X' || code[1] == 'x') {
		return int(code[0]-'0') * 100
	}
	return http.StatusOK
}

// response returns the documented response of a code.
func (o *operation) response(code string) *v3.Response {
	if o.model.Responses == nil {
		return nil
	}
	if code == "default" {
		return o.model.Responses.Default
	}
	if o.model.Responses.Codes == nil {
		return nil
	}
	return o.model.Responses.Codes.GetOrZero(code)
}

// mediaTypes lists the media types a response documents, in order.
func mediaTypes(resp *v3.Response) []string {
	var out []string
	if resp != nil && resp.Content != nil {
		for mt := range resp.Content.FromOldest() {
			out = append(out, mt)
		}
	}
	return out
}

// pickMedia negotiates the media type of a response with the request's Accept: a 406 problem
// when it accepts none of the documented ones.
func (o *operation) pickMedia(r *http.Request, code string) (string, *problem) {
	offered := mediaTypes(o.response(code))
	mt, ok := negotiate(r.Header.Get("Accept"), offered)
	if !ok {
		return "", &problem{Status: http.StatusNotAcceptable,
			Detail: fmt.Sprintf("Accept %q matches none of the media types the %s response of %s documents: %s", r.Header.Get("Accept"), code, o.ID, strings.Join(offered, ", ")),
			Errors: []fieldError{{In: "header", Name: "Accept", Problem: "no documented media type is acceptable", Expected: strings.Join(offered, ", ")}}}
	}
	return mt, nil
}

// example returns the example a response's media type documents: the one named (a 400
// problem when there is no such name), else its first named one or its single example.
func (d *Document) example(o *operation, code, media, name string) (any, bool, *problem) {
	resp := o.response(code)
	if resp == nil || resp.Content == nil {
		return nil, false, nil
	}
	mt := resp.Content.GetOrZero(media)
	if mt == nil {
		return nil, false, nil
	}
	var names []string
	if mt.Examples != nil {
		for n, ex := range mt.Examples.FromOldest() {
			names = append(names, n)
			if ex == nil || ex.Value == nil {
				continue
			}
			if name == "" || name == n {
				return plain(ex.Value), true, nil
			}
		}
	}
	if name != "" {
		return nil, false, &problem{Status: http.StatusBadRequest, Title: "Unknown example",
			Detail: fmt.Sprintf("Prefer: example=%s names no example of the %s %s response of %s; it has %s", name, code, media, o.ID, orNone(names)),
			Errors: []fieldError{{In: "header", Name: "Prefer", Problem: "example=" + name + " is not documented", Expected: "example= one of " + orNone(names)}}}
	}
	if mt.Example != nil {
		return plain(mt.Example), true, nil
	}
	return nil, false, nil
}

func orNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}
