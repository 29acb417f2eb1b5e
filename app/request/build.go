package request

import (
	"strings"

	"loupe/app/catalog"
	"loupe/app/fetch"
)

// Build validates st against op and returns the request to send to base (for example
// "/proxy/entities") or, when anything is wrong, every error found, in form order.
func Build(op *catalog.Operation, base string, st State) (*Request, []FieldError) {
	return build(op, base, st, true)
}

// Preview returns the request the form describes even when it is invalid: values are sent as
// typed, a missing path parameter stays as its {placeholder}, and the body is not checked. It is
// what the request preview shows while the user is still typing.
func Preview(op *catalog.Operation, base string, st State) *Request {
	req, _ := build(op, base, st, false)
	return req
}

func build(op *catalog.Operation, base string, st State, strict bool) (*Request, []FieldError) {
	var errs []FieldError
	req := &Request{Method: op.Method}
	key := catalog.ParsePathKey(op.Path)
	vars := map[string]catalog.TemplatePart{}
	for _, p := range key.Path {
		if p.Var != "" {
			vars[p.Var] = p
		}
	}
	inQuery := map[string]bool{}
	for _, p := range key.Query {
		inQuery[p.Var] = p.Var != ""
	}
	filled := map[string]string{}
	var query, cookies []string
	for i := range op.Parameters {
		p := &op.Parameters[i]
		pk := Key(p)
		vals := trimNumbers(ItemSchema(p), nonEmpty(st.Params[pk]))
		if msg := CheckParam(p, vals); msg != "" && strict {
			errs = append(errs, FieldError{Key: pk, Message: msg})
			continue
		}
		if len(vals) == 0 {
			continue
		}
		v, err := paramValue(p, vals)
		if err != nil {
			if strict {
				errs = append(errs, FieldError{Key: pk, Message: err.Error()})
				continue
			}
			v = vals[0]
		}
		if p.ContentType != "" {
			v = contentValue(v.(string))
		}
		ser := p.Serialization()
		switch p.In {
		case "path":
			if inQuery[p.Name] {
				filled[p.Name] = joinValue(v, ",", "=", ser.Explode, func(s string) string { return queryEscape(s, ser.AllowReserved) })
			} else {
				filled[p.Name] = pathValue(p.Name, v, ser, vars[p.Name].Operator)
			}
		case "query":
			query = append(query, queryPairs(p.Name, v, ser)...)
		case "header":
			if s := headerValue(v, ser); strings.ContainsAny(s, "\r\n\x00") && strict {
				errs = append(errs, FieldError{Key: pk, Message: "a header value cannot hold a line break"})
			} else {
				req.Headers = append(req.Headers, fetch.Header{Name: p.Name, Value: s})
			}
		case "cookie":
			cookies = append(cookies, cookiePairs(p.Name, v, ser)...)
		}
	}
	if len(cookies) > 0 {
		req.Headers = append(req.Headers, fetch.Header{Name: "Cookie", Value: strings.Join(cookies, "; ")})
	}
	if b := BodyOf(op, st); b != nil {
		body, berrs := buildBody(b, st, strict)
		errs = append(errs, berrs...)
		if body != nil {
			req.Body, req.Form, req.Parts = body.data, body.form, body.parts
			if req.Body == nil {
				req.Body = []byte{}
			}
			req.Headers = append(req.Headers, bodyHeaders(body)...)
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	req.Path = expand(key.Path, filled)
	if len(key.Query) > 0 {
		query = append(strings.Split(expand(key.Query, filled), "&"), query...)
	}
	req.Query = decodePairs(query)
	req.URL = base + req.Path
	if len(query) > 0 {
		req.URL += "?" + strings.Join(query, "&")
	}
	return req, nil
}

// expand fills a template's variables with their written values; a variable without one
// stays as written ({scriptId}), as the preview shows it.
func expand(parts []catalog.TemplatePart, filled map[string]string) string {
	var b strings.Builder
	for _, p := range parts {
		if p.Var == "" {
			b.WriteString(p.Literal)
		} else if v, ok := filled[p.Var]; ok {
			b.WriteString(v)
		} else {
			b.WriteString(p.String())
		}
	}
	return b.String()
}
