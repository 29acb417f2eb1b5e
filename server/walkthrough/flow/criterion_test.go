package flow

import (
	"strings"
	"testing"
)

// exampleContext is an answer every criterion test reads.
func exampleContext() *Context {
	return &Context{
		Inputs:    map[string]any{"name": "Paris", "limit": float64(3), "order": map[string]any{"id": "o-1"}},
		Steps:     map[string]map[string]any{"search": {"id": "kg:/m/05qtj", "count": float64(2)}},
		Workflows: map[string]*WorkflowResult{"login": {OK: true, Outputs: map[string]any{"token": "t-1"}}},
		Doc: &Document{Sources: []Source{{Name: "pets", URL: "./pets.yaml", Type: "openapi"}},
			Parameters: map[string]Param{"page": {Name: "page", In: "query", Value: float64(1)}}},
		Exchange: &Exchange{URL: "http://x/pets?limit=3", Method: "GET", Status: 200,
			Request: Message{Query: map[string]string{"limit": "3"}, Path: map[string]string{"id": "7"}},
			Response: Message{Header: map[string][]string{"Content-Type": {"application/json"}, "X-Rate-Limit": {"10"}},
				Body: map[string]any{"pets": []any{map[string]any{"id": float64(7), "name": "Rex", "tags": []any{"dog"}}},
					"status": "OK", "next": nil, "done": true}}},
	}
}

// TestCriteria evaluates every criterion type and expression form against one answer: what it
// gives, and why.
func TestCriteria(t *testing.T) {
	for _, tc := range []struct {
		name    string
		c       Criterion
		want    string // outcome
		wantWhy string // part of Why
	}{
		{"status", Criterion{Condition: "$statusCode == 200"}, Passed, "$statusCode = 200"},
		{"status fails", Criterion{Condition: "$statusCode == 201"}, Failed, "$statusCode = 200"},
		{"strings compare without case", Criterion{Condition: "$response.body#/status == 'ok'"}, Passed, `"OK"`},
		{"a quote in a string", Criterion{Condition: "'it''s' == 'IT''S'"}, Passed, ""},
		{"a number and a numeric header", Criterion{Condition: "$response.header.x-rate-limit >= 10"}, Passed, "= \"10\""},
		{"and, or, not, parentheses", Criterion{Condition: "$statusCode == 200 && ($method == 'POST' || !($response.body#/done == false))"}, Passed, ""},
		{"index and member after an expression", Criterion{Condition: "$response.body.pets[0].name == 'rex'"}, Passed, "$response.body.pets[0].name = \"Rex\""},
		{"a missing member equals null", Criterion{Condition: "$response.body#/missing == null"}, Passed, "reaches nothing"},
		{"null equals null", Criterion{Condition: "$response.body#/next == null"}, Passed, ""},
		{"a missing member compared fails with why", Criterion{Condition: "$response.body#/missing == 3"}, Failed, "no member \"missing\""},
		{"a bare word is not a literal", Criterion{Condition: "$response.body#/status == OK"}, Failed, "single quotes"},
		{"inputs, with a member", Criterion{Condition: "$inputs.order.id == 'o-1'"}, Passed, ""},
		{"an input's pointer", Criterion{Condition: "$inputs.order#/id == 'O-1'"}, Passed, ""},
		{"step outputs", Criterion{Condition: "$steps.search.outputs.count < $inputs.limit"}, Passed, ""},
		{"workflow outputs", Criterion{Condition: "$workflows.login.outputs.token == 't-1'"}, Passed, ""},
		{"a step that has not run", Criterion{Condition: "$steps.nope.outputs.id == 1"}, Failed, "step nope has not run"},
		{"request values", Criterion{Condition: "$request.query.limit == 3 && $request.path.id == 7 && $url == 'http://x/pets?limit=3'"}, Passed, ""},
		{"source and component", Criterion{Condition: "$sourceDescriptions.pets.url == './pets.yaml' && $components.parameters.page == 1"}, Passed, ""},
		{"a condition that is not a boolean", Criterion{Condition: "$statusCode"}, Failed, "not true or false"},
		{"regex", Criterion{Context: "$statusCode", Condition: "^2\\d\\d$", Type: "regex"}, Passed, `matched "200"`},
		{"regex with flags as Respect writes it", Criterion{Context: "$response.body#/status", Condition: "/^ok$/i", Type: "regex"}, Passed, ""},
		{"regex no match", Criterion{Context: "$response.header.Content-Type", Condition: "xml", Type: "regex"}, Failed, "no match"},
		{"regex with an embedded expression", Criterion{Context: "$url", Condition: "limit={$inputs.limit}$", Type: "regex"}, Passed, ""},
		{"jsonpath filter over the object", Criterion{Context: "$response.body", Condition: "$[?count(@.pets) > 0]", Type: "jsonpath"}, Passed, "selected 1"},
		{"jsonpath filter that selects nothing", Criterion{Context: "$response.body", Condition: "$[?count(@.pets) == 0]", Type: "jsonpath"}, Failed, "selected nothing"},
		{"jsonpath plain path", Criterion{Context: "$response.body", Condition: "$.pets[*].tags[?@ == 'dog']", Type: "jsonpath"}, Passed, ""},
		{"jsonpath filter over a list tests its items", Criterion{Context: "$response.body#/pets", Condition: "$[?@.id == 7]", Type: "jsonpath"}, Passed, ""},
		{"jsonpath embedded expression", Criterion{Context: "$response.body", Condition: "$.pets[?@.name == '{$inputs.name}']", Type: "jsonpath"}, Failed, "selected nothing"},
		{"jsonpath embedded string without quotes is quoted", Criterion{Context: "$response.body", Condition: "$.pets[?@.name == {$response.body#/pets/0/name}]", Type: "jsonpath"}, Passed, "selected 1"},
		{"jsonpath syntax error fails", Criterion{Context: "$response.body", Condition: "$[?", Type: "jsonpath"}, Failed, "does not parse"},
		{"xpath on a non-XML context", Criterion{Context: "$response.body", Condition: "/a", Type: "xpath"}, Failed, "not XML text"},
		{"simple condition with a context", Criterion{Context: "$response.body#/status", Condition: "ok", Type: "simple"}, Passed, ""},
		{"unknown type", Criterion{Context: "$statusCode", Condition: "x", Type: "glob"}, Failed, "expected simple, regex, jsonpath or xpath"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.c.Evaluate(exampleContext())
			if got.Outcome != tc.want || !strings.Contains(got.Why, tc.wantWhy) {
				t.Errorf("got %s (%s); want %s with why containing %q", got.Outcome, got.Why, tc.want, tc.wantWhy)
			}
		})
	}
}

// TestXPath evaluates XPath criteria against an XML answer: node sets, booleans, numbers.
func TestXPath(t *testing.T) {
	ctx := exampleContext()
	ctx.Exchange.Response.Body = `<root><pets><pet id="7">Rex</pet><pet id="8">Tom</pet></pets></root>`
	for _, tc := range []struct {
		cond, want string
	}{
		{"/root/pets/pet", Passed},
		{"count(/root/pets/pet) > 1", Passed},
		{"count(/root/pets/pet)", Passed},
		{"/root/cats", Failed},
		{"string(/root/pets/pet[@id='8'])", Passed},
		{"count(/root/pets/pet) = 5", Failed},
	} {
		got := Criterion{Context: "$response.body", Condition: tc.cond, Type: "xpath"}.Evaluate(ctx)
		if got.Outcome != tc.want {
			t.Errorf("%s: got %s (%s); want %s", tc.cond, got.Outcome, got.Why, tc.want)
		}
	}
}

// TestExpressionForms parses each form of runtime expression and refuses the malformed ones.
func TestExpressionForms(t *testing.T) {
	for _, tc := range []struct {
		in, wantErr string
	}{
		{"$url", ""}, {"$method", ""}, {"$statusCode", ""}, {"$request.header.accept", ""},
		{"$request.query.id", ""}, {"$request.path.id", ""}, {"$request.body#/user/uuid", ""},
		{"$response.body", ""}, {"$response.header.Server", ""}, {"$inputs.username", ""},
		{"$inputs.customer#/firstName", ""}, {"$outputs.bar", ""}, {"$steps.some-step.outputs.pets#/0/id", ""},
		{"$workflows.foo.outputs.bar", ""}, {"$workflows.foo.inputs.username", ""},
		{"$sourceDescriptions.pets.url", ""}, {"$components.parameters.foo", ""},
		{"$steps.retrieve.finalizedPaymentPlan", "$steps.<stepId>.outputs.<name>"},
		{"$response.bodyx", "$response.header.<name>"},
		{"$request.body#x", "starts with /"},
		{"$nope", "expected $url"},
	} {
		_, err := ParseExpr(tc.in)
		switch {
		case tc.wantErr == "" && err != nil:
			t.Errorf("%s: got %v; want it to parse", tc.in, err)
		case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
			t.Errorf("%s: got %v; want an error saying %q", tc.in, err, tc.wantErr)
		}
	}
	ctx := exampleContext()
	for in, want := range map[string]string{
		"name={$inputs.name}&n={$steps.search.outputs.count}": "name=Paris&n=2",
		"{$response.body#/pets/0}":                            `{"id":7,"name":"Rex","tags":["dog"]}`,
		"$5 off":                                              "$5 off",
		"{not an expression} {$inputs.limit}":                 "{not an expression} 3",
	} {
		v, err := ctx.String(in)
		if err != nil || Text(v) != want {
			t.Errorf("%s: got %v, %v; want %s", in, Text(v), err, want)
		}
	}
}

// TestSelectors evaluates Selector Objects (Arazzo 1.1.0): JSONPath, JSON pointer and XPath,
// as an output and as a value.
func TestSelectors(t *testing.T) {
	ctx := exampleContext()
	for _, tc := range []struct {
		sel     Selector
		want    string
		wantErr string
	}{
		{Selector{"$response.body", "$.pets[0].name", "jsonpath"}, "Rex", ""},
		{Selector{"$response.body", "$.pets[*].tags[*]", "jsonpath"}, "dog", ""},
		{Selector{"$response.body", "/pets/0/id", "jsonpointer"}, "7", ""},
		{Selector{"$response.body", "$.cats[0]", "jsonpath"}, "", "selects nothing"},
		{Selector{"$inputs.order", "$.id", "jsonpath"}, "o-1", ""},
	} {
		got, err := Output{Name: "x", Selector: &tc.sel}.Eval(ctx)
		if (err == nil) != (tc.wantErr == "") || (err != nil && !strings.Contains(err.Error(), tc.wantErr)) || (err == nil && Text(got) != tc.want) {
			t.Errorf("%+v: got %v, %v; want %q (error %q)", tc.sel, Text(got), err, tc.want, tc.wantErr)
		}
	}
	v, err := ctx.Resolve(map[string]any{"pet": map[string]any{"context": "$response.body", "selector": "$.pets[0].id", "type": "jsonpath"}, "n": "x"})
	if err != nil || Text(v) != `{"n":"x","pet":7}` {
		t.Errorf("got %v, %v; want the selector as a payload value resolved to 7", Text(v), err)
	}
	ctx.Exchange.Response.Body = `<inv><no>A-17</no></inv>`
	if got, err := ctx.Select(Selector{"$response.body", "/inv/no", "xpath"}); err != nil || got != "A-17" {
		t.Errorf("xpath: got %v, %v; want A-17", got, err)
	}
}
