package snippet

import (
	"bytes"
	"encoding/json"
	"strings"

	"loupe/app/request"
)

// proxyKey is the API key a client library that insists on one gets through Loupe's proxy,
// which drops it and adds the real credential.
const proxyKey = "unused: the Loupe proxy adds the credential"

// streams reports whether a chat completions body asks for a stream.
func streams(body []byte) bool {
	var b struct {
		Stream bool `json:"stream"`
	}
	return json.Unmarshal(body, &b) == nil && b.Stream
}

// pretty returns a JSON body indented by two spaces, or the body as is when it is not JSON.
func pretty(body []byte) string {
	var out bytes.Buffer
	if json.Indent(&out, body, "", "  ") != nil {
		return string(body)
	}
	return out.String()
}

// OpenAIPython returns a chat completions request as Python using the openai client, pointed
// at t; a streamed answer is printed chunk by chunk.
func OpenAIPython(t Target, req *request.Request) string {
	var b strings.Builder
	comments(&b, "#", t.notes())
	b.WriteString("import json\n")
	key := str(proxyKey)
	if cs := t.creds(); len(cs) > 0 {
		b.WriteString("import os\n")
		key = "os.environ[" + str(cs[0].Var) + "]"
	}
	b.WriteString("\nfrom openai import OpenAI\n\n")
	b.WriteString("client = OpenAI(base_url=" + str(t.base()+"/v1") + ", api_key=" + key + ")\n")
	b.WriteString("body = json.loads(" + str(string(req.Body)) + ")\n")
	args := "**body"
	if h := extraHeaders(req); len(h) > 0 {
		args += ", extra_headers={"
		for i, kv := range h {
			if i > 0 {
				args += ", "
			}
			args += str(kv[0]) + ": " + str(kv[1])
		}
		args += "}"
	}
	b.WriteString("completion = client.chat.completions.create(" + args + ")\n")
	if streams(req.Body) {
		b.WriteString("for chunk in completion:\n    print(chunk.model_dump_json())\n")
	} else {
		b.WriteString("print(completion.model_dump_json(indent=2))\n")
	}
	return b.String()
}

// OpenAINode returns a chat completions request as a Node.js ES module using the openai
// client, pointed at t; a streamed answer is printed chunk by chunk.
func OpenAINode(t Target, req *request.Request) string {
	var b strings.Builder
	comments(&b, "//", t.notes())
	key := str(proxyKey)
	if cs := t.creds(); len(cs) > 0 {
		key = "process.env." + cs[0].Var
	}
	b.WriteString("import OpenAI from \"openai\";\n\n")
	b.WriteString("const client = new OpenAI({ baseURL: " + str(t.base()+"/v1") + ", apiKey: " + key + " });\n")
	b.WriteString("const body = " + indent(pretty(req.Body), "") + ";\n")
	opts := ""
	if h := extraHeaders(req); len(h) > 0 {
		opts = ", { headers: {"
		for i, kv := range h {
			if i > 0 {
				opts += ", "
			}
			opts += str(kv[0]) + ": " + str(kv[1])
		}
		opts += "} }"
	}
	b.WriteString("const completion = await client.chat.completions.create(body" + opts + ");\n")
	if streams(req.Body) {
		b.WriteString("for await (const chunk of completion) console.log(JSON.stringify(chunk));\n")
	} else {
		b.WriteString("console.log(JSON.stringify(completion, null, 2));\n")
	}
	return b.String()
}
