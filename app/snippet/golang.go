package snippet

import (
	"sort"
	"strconv"
	"strings"

	"loupe/app/request"
)

// Go returns req as a Go program using net/http sent to t: it prints the status and the body, a
// stream's events as they arrive.
// Each credential is read with os.Getenv.
func Go(t Target, req *request.Request) string {
	imports := map[string]bool{"fmt": true, "io": true, "net/http": true}
	var m strings.Builder // main's body
	query, header := queryCreds(t.creds())
	target := strconv.Quote(t.URL(req))
	for i, c := range query {
		imports["net/url"], imports["os"] = true, true
		sep := "?"
		if i > 0 || hasQuery(t.URL(req)) {
			sep = "&"
		}
		target += " +\n\t\t" + strconv.Quote(sep+c.Name+"=") + " + url.QueryEscape(os.Getenv(" + strconv.Quote(c.Var) + "))"
	}
	body, before, after, helpers := goBody(req, imports)
	m.WriteString(before)
	method := req.Method
	if method == "" {
		method = "GET"
	}
	m.WriteString("\treq, err := http.NewRequest(" + strconv.Quote(method) + ", " + target + ", " + body + ")\n")
	m.WriteString("\tif err != nil {\n\t\tpanic(err)\n\t}\n")
	m.WriteString(after)
	for _, h := range sentHeaders(req) {
		m.WriteString("\treq.Header.Set(" + strconv.Quote(h.Name) + ", " + strconv.Quote(h.Value) + ")\n")
	}
	for _, c := range header {
		imports["os"] = true
		value := "os.Getenv(" + strconv.Quote(c.Var) + ")"
		if c.Before != "" {
			value = strconv.Quote(c.Before) + "+" + value
		}
		m.WriteString("\treq.Header.Set(" + strconv.Quote(c.Name) + ", " + value + ")\n")
	}
	m.WriteString("\tres, err := http.DefaultClient.Do(req)\n")
	m.WriteString("\tif err != nil {\n\t\tpanic(err)\n\t}\n")
	m.WriteString("\tdefer res.Body.Close()\n")
	if streams(req.Body) { // each event as it arrives
		imports["os"] = true
		m.WriteString("\tfmt.Println(res.Status)\n")
		m.WriteString("\tif _, err := io.Copy(os.Stdout, res.Body); err != nil {\n\t\tpanic(err)\n\t}\n")
	} else {
		m.WriteString("\tout, err := io.ReadAll(res.Body)\n")
		m.WriteString("\tif err != nil {\n\t\tpanic(err)\n\t}\n")
		m.WriteString("\tfmt.Println(res.Status)\n")
		m.WriteString("\tfmt.Println(string(out))\n")
	}

	var b strings.Builder
	comments(&b, "//", t.notes())
	b.WriteString("package main\n\nimport (\n")
	names := make([]string, 0, len(imports))
	for name := range imports {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		b.WriteString("\t" + strconv.Quote(name) + "\n")
	}
	b.WriteString(")\n\nfunc main() {\n")
	b.WriteString(m.String())
	b.WriteString("}\n")
	b.WriteString(helpers)
	return b.String()
}

// goString returns s as a Go string literal: raw (backquoted) when it can be, for a readable
// JSON body, else quoted.
func goString(s string) string {
	if !strings.ContainsAny(s, "`\r") && strconv.CanBackquote(strings.ReplaceAll(s, "\n", "")) {
		return "`" + s + "`"
	}
	return strconv.Quote(s)
}
