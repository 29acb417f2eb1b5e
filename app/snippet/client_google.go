package snippet

import (
	"strings"

	"loupe/app/catalog"
	"loupe/app/request"
)

// methodChain returns an operationId as a Google client's call chain: projects.versions.create
// is projects.versions.create in Node and projects().versions().create in Python.
func methodChain(opID string, python bool) string {
	parts := strings.Split(opID, ".")
	if !python {
		return strings.Join(parts, ".")
	}
	return strings.Join(parts, "().")
}

// envValue writes credential c's value read from its variable, in JavaScript or Python.
func envValue(c envCred, python bool) string {
	value := "process.env." + c.Var
	if python {
		value = "os.environ[" + str(c.Var) + "]"
	}
	if c.Before != "" {
		value = str(c.Before) + " + " + value
	}
	return value
}

// GooglePython returns req as Python using the Google API client (google-api-python-client),
// the service built from its bundled discovery document and pointed at t. An API key is the
// client's developerKey; an OAuth token is sent as a bearer token (the same as access_token).
func GooglePython(t Target, op *catalog.Operation, req *request.Request) string {
	g := googleAPIs[t.Direct.Slug]
	var b strings.Builder
	comments(&b, "#", t.notes())
	cs := t.creds()
	b.WriteString("import json\n")
	if len(cs) > 0 {
		b.WriteString("import os\n")
	}
	b.WriteString("\nfrom googleapiclient.discovery import build\n")
	args := str(g.name) + ", " + str(g.version) + ", client_options={\"api_endpoint\": " + str(t.base()+"/") + "}"
	switch {
	case len(cs) == 0:
		b.WriteString("from google.auth.credentials import AnonymousCredentials\n")
		args += ", credentials=AnonymousCredentials()"
	case cs[0].In == "query" && cs[0].Name == "key":
		args += ", developerKey=os.environ[" + str(cs[0].Var) + "]"
	default:
		b.WriteString("from google.oauth2.credentials import Credentials\n")
		args += ", credentials=Credentials(os.environ[" + str(cs[0].Var) + "])"
	}
	b.WriteString("\nservice = build(" + args + ")\n")
	var call []string
	for _, p := range callParams(op, req) {
		call = append(call, pyParam(p.name)+"="+p.literal(true))
	}
	if req.Body != nil {
		call = append(call, "body=json.loads("+str(string(req.Body))+")")
	}
	b.WriteString("response = service." + methodChain(op.ID, true) + "(" + strings.Join(call, ", ") + ").execute()\n")
	b.WriteString("print(json.dumps(response, indent=2))\n")
	return b.String()
}

// GoogleNode returns req as a Node.js ES module using the API's googleapis package
// (@googleapis/<name>, the per-API split of googleapis), pointed at t.
func GoogleNode(t Target, op *catalog.Operation, req *request.Request) string {
	g := googleAPIs[t.Direct.Slug]
	var b strings.Builder
	comments(&b, "//", t.notes())
	cs := t.creds()
	oauth := len(cs) > 0 && !(cs[0].In == "query" && cs[0].Name == "key")
	if oauth {
		b.WriteString("import { " + g.name + ", auth } from " + str(g.npm) + ";\n\n")
		b.WriteString("const oauth = new auth.OAuth2();\n")
		b.WriteString("oauth.setCredentials({ access_token: process.env." + cs[0].Var + " });\n")
	} else {
		b.WriteString("import { " + g.name + " } from " + str(g.npm) + ";\n\n")
	}
	// The root URL goes with each call: given to the service, it would keep only its host.
	b.WriteString("const service = " + g.name + "({ version: " + str(g.version))
	switch {
	case oauth:
		b.WriteString(", auth: oauth")
	case len(cs) > 0:
		b.WriteString(", auth: process.env." + cs[0].Var)
	}
	b.WriteString(" });\n")
	// The call's arguments, four spaces in: the parameters, then the body.
	var fields strings.Builder
	for _, p := range callParams(op, req) {
		fields.WriteString("    " + jsKey(p.name) + ": " + p.literal(false) + ",\n")
	}
	if req.Body != nil {
		fields.WriteString("    requestBody: " + indent(pretty(req.Body), "    ") + ",\n")
	}
	opts := "{ rootUrl: " + str(t.base()+"/")
	if h := extraHeaders(req); len(h) > 0 {
		var hs []string
		for _, kv := range h {
			hs = append(hs, str(kv[0])+": "+str(kv[1]))
		}
		opts += ", headers: { " + strings.Join(hs, ", ") + " }"
	}
	opts += " }"
	b.WriteString("const response = await service." + methodChain(op.ID, false) + "(\n  {\n" + fields.String() + "  },\n  " + opts + ",\n);\n")
	b.WriteString("console.log(response.status);\n")
	b.WriteString("console.log(JSON.stringify(response.data, null, 2));\n")
	return b.String()
}

// jsKey writes name as an object key: bare when it is an identifier, else quoted.
func jsKey(name string) string {
	for i, c := range name {
		if !(c == '_' || c == '$' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && '0' <= c && c <= '9') {
			return str(name)
		}
	}
	if name == "" {
		return str(name)
	}
	return name
}

// pythonReserved are the names google-api-python-client suffixes with "_" (its RESERVED_WORDS).
var pythonReserved = map[string]bool{
	"and": true, "assert": true, "break": true, "class": true, "continue": true, "def": true, "del": true,
	"elif": true, "else": true, "except": true, "exec": true, "finally": true, "for": true, "from": true,
	"global": true, "if": true, "import": true, "in": true, "is": true, "lambda": true, "not": true, "or": true,
	"pass": true, "print": true, "raise": true, "return": true, "try": true, "while": true, "body": true,
}

// pyParam is a parameter's keyword argument in google-api-python-client, as its key2param
// names it: each character that is not a letter or digit becomes "_", an "x" goes before a
// name that does not start with a letter, and a reserved word gets a trailing "_".
func pyParam(name string) string {
	var b strings.Builder
	for i, c := range name {
		letter := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
		if i == 0 && !letter {
			b.WriteByte('x')
		}
		if letter || '0' <= c && c <= '9' {
			b.WriteRune(c)
		} else {
			b.WriteByte('_')
		}
	}
	if pythonReserved[b.String()] {
		b.WriteByte('_')
	}
	return b.String()
}
