package server

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"reflect"
	"testing"

	"google.golang.org/api/googleapi"
	"google.golang.org/api/option"
	scriptapi "google.golang.org/api/script/v1"

	"loupe/server/sandbox"
)

// scriptBearer sends the key as a bearer token (the script client has no API-key mode).
type scriptBearer struct{ key string }

func (b scriptBearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.key)
	return http.DefaultTransport.RoundTrip(r)
}

// scriptClientCode is the project the official client saves and runs: two files sharing one
// global scope, a TypeError two calls deep, and a custom error.
const scriptClientCode = "function total(items) {\n" + // 1
	"  return items.reduce(function (s, it) { return s + price(it); }, 0);\n" + // 2
	"}\n" + // 3
	"function broken(x) {\n" + // 4
	"  return inner(x);\n" + // 5
	"}\n" + // 6
	"function inner(x) {\n" + // 7
	"  return x.missing.deeper;\n" + // 8
	"}\n" + // 9
	"function refuse() {\n" + // 10
	"  throw new RangeError('too many invoices: ' + 3);\n" + // 11
	"}\n"

// TestScriptClientRunsJavaScript drives scripts.run with google.golang.org/api/script/v1 against
// /sandbox/script and /proxy/script: real results, ExecutionErrors with their stacks, and a
// syntax error refused by updateContent.
func TestScriptClientRunsJavaScript(t *testing.T) {
	base := startTestServer(t)
	ctx := context.Background()
	for _, endpoint := range []string{"/sandbox/script/", "/proxy/script/"} {
		t.Run(endpoint, func(t *testing.T) {
			svc, err := scriptapi.NewService(ctx, option.WithEndpoint(base+endpoint),
				option.WithHTTPClient(&http.Client{Transport: scriptBearer{sandbox.DefaultKey}}))
			if err != nil {
				t.Fatalf("NewService: %v", err)
			}
			p, err := svc.Projects.Create(&scriptapi.CreateProjectRequest{Title: "Client " + endpoint}).Context(ctx).Do()
			if err != nil {
				t.Fatalf("projects.create: %v", err)
			}
			files := []*scriptapi.File{
				{Name: "appsscript", Type: "JSON", Source: `{"timeZone":"UTC","runtimeVersion":"V8","executionApi":{"access":"MYSELF"}}`},
				{Name: "Code", Type: "SERVER_JS", Source: scriptClientCode},
				{Name: "Prices", Type: "SERVER_JS", Source: "var VAT = 1.2;\nfunction price(it) {\n  return it.net * VAT;\n}\n"},
			}
			c, err := svc.Projects.UpdateContent(p.ScriptId, &scriptapi.Content{Files: files}).Context(ctx).Do()
			if err != nil {
				t.Fatalf("projects.updateContent: %v", err)
			}
			if got := c.Files[1].FunctionSet; got == nil || len(got.Values) != 4 || got.Values[0].Name != "total" ||
				!reflect.DeepEqual(got.Values[0].Parameters, []string{"items"}) {
				t.Errorf("functionSet: got %+v; want total(items), broken, inner, refuse", got)
			}
			run := func(fn string, params ...any) *scriptapi.Operation {
				t.Helper()
				op, err := svc.Scripts.Run(p.ScriptId, &scriptapi.ExecutionRequest{Function: fn, Parameters: params, DevMode: true}).Context(ctx).Do()
				if err != nil || !op.Done {
					t.Fatalf("scripts.run %s: got %+v, %v; want done", fn, op, err)
				}
				return op
			}

			op := run("total", []any{map[string]any{"net": 10}, map[string]any{"net": 5}})
			var resp scriptapi.ExecutionResponse
			if err := json.Unmarshal(op.Response, &resp); err != nil || resp.Result != 18.0 {
				t.Errorf("total: got %s (%v); want 18", op.Response, err)
			}

			tests := []struct {
				fn         string
				wantType   string
				wantMsg    string
				wantFrames []*scriptapi.ScriptStackTraceElement
			}{
				{"broken", "TypeError", "Cannot read properties of undefined or null (reading 'deeper')",
					[]*scriptapi.ScriptStackTraceElement{{Function: "inner", LineNumber: 8}, {Function: "broken", LineNumber: 5}}},
				{"refuse", "RangeError", "too many invoices: 3",
					[]*scriptapi.ScriptStackTraceElement{{Function: "refuse", LineNumber: 11}}},
			}
			for _, tt := range tests {
				op := run(tt.fn, map[string]any{})
				if op.Error == nil || op.Error.Code != 3 || len(op.Error.Details) != 1 {
					t.Errorf("%s: got %+v; want an error with one detail", tt.fn, op)
					continue
				}
				var ee scriptapi.ExecutionError
				if err := json.Unmarshal(op.Error.Details[0], &ee); err != nil {
					t.Fatalf("%s: decoding the detail: %v", tt.fn, err)
				}
				if ee.ErrorType != tt.wantType || ee.ErrorMessage != tt.wantMsg || !reflect.DeepEqual(ee.ScriptStackTraceElements, tt.wantFrames) {
					t.Errorf("%s: got %s %q %s; want %s %q %s", tt.fn, ee.ErrorType, ee.ErrorMessage, js(ee.ScriptStackTraceElements),
						tt.wantType, tt.wantMsg, js(tt.wantFrames))
				}
			}

			files[1].Source = "function total(items) {\n  return items.;\n}\n"
			_, err = svc.Projects.UpdateContent(p.ScriptId, &scriptapi.Content{Files: files}).Context(ctx).Do()
			var gerr *googleapi.Error
			want := "Syntax error: SyntaxError: Unexpected token ; line: 2 file: Code"
			if !errors.As(err, &gerr) || gerr.Code != 400 || gerr.Message != want {
				t.Errorf("a syntax error: got %v; want googleapi.Error 400 %q", err, want)
			}
		})
	}
}

// js renders v as JSON for messages.
func js(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
