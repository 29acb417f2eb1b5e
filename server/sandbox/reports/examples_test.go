package reports

import (
	"encoding/json"
	"io/fs"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v4"

	"loupe/content"
	"loupe/server/sandbox/internal/spectest"
)

// exampleSpec is the part of the OpenAPI document the example test reads.
type exampleSpec struct {
	Paths map[string]map[string]struct {
		OperationID string `yaml:"operationId"`
		Responses   map[string]struct {
			Content map[string]struct {
				Example any `yaml:"example"`
			} `yaml:"content"`
		} `yaml:"responses"`
	} `yaml:"paths"`
}

// documentedToken is the example's nextPageToken with its time field corrected: the document
// gives 1795426887015000 (2026-11-23T09:41:27.015Z), three days after the time of the record it
// follows (2026-11-20T09:41:27.015Z). The sandbox writes that record's real time.
const documentedToken = "A:1795167687015000:4521983374650012871:calendar:C03az79cb"

// TestDocumentedExamples sends activities.list the request each documented example describes
// and wants the documented body, equal in value. The 403 (missing scope) cannot happen in the
// sandbox, whose tokens carry no scopes.
func TestDocumentedExamples(t *testing.T) {
	b, err := fs.ReadFile(content.FS, DefaultSpec)
	if err != nil {
		t.Fatalf("reading the reports document: %v", err)
	}
	var s exampleSpec
	if err := yaml.Unmarshal(b, &s); err != nil {
		t.Fatalf("parsing the reports document: %v", err)
	}
	op := s.Paths[ListPattern]["get"]
	h := newTestHandler(t)
	tests := []struct {
		status, target string
	}{
		{"200", withToken(listPath + "?maxResults=2")},
		{"400", withToken(listPath + "?maxResults=5000")},
		{"401", listPath + "?maxResults=2"},
		{"401", listPath + "?access_token=expired"},
	}
	seen := map[string]bool{"403": true}
	for _, tt := range tests {
		t.Run(tt.status, func(t *testing.T) {
			ex := op.Responses[tt.status].Content["application/json"].Example
			if ex == nil {
				t.Fatalf("%s %s: the document has no example", op.OperationID, tt.status)
			}
			seen[tt.status] = true
			want := spectest.Normalize(t, ex).(map[string]any)
			w := serve(t, h, tt.target, nil)
			if got := strconv.Itoa(w.Code); got != tt.status {
				t.Errorf("status: got %s; want %s", got, tt.status)
			}
			var got map[string]any
			if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil {
				t.Fatalf("decoding %s: %v", w.Body, err)
			}
			if tok, ok := want["nextPageToken"].(string); ok {
				wantFields, gotFields := strings.Split(tok, ":"), strings.Split(documentedToken, ":")
				wantFields[1], gotFields[1] = "", ""
				if !reflect.DeepEqual(wantFields, gotFields) {
					t.Fatalf("the documented token %s no longer differs from %s in its time field only", tok, documentedToken)
				}
				if got := got["nextPageToken"]; got != documentedToken {
					t.Errorf("nextPageToken: got %v; want %s", got, documentedToken)
				}
				delete(want, "nextPageToken")
				delete(got, "nextPageToken")
			}
			if !reflect.DeepEqual(got, want) {
				g, _ := json.Marshal(got)
				e, _ := json.Marshal(want)
				t.Errorf("body: got %s; want %s", g, e)
			}
		})
	}
	for status, r := range op.Responses {
		if r.Content["application/json"].Example != nil && !seen[status] {
			t.Errorf("activities.list %s has an example this test does not check", status)
		}
	}
}

// TestDocumentedPageToken: the documented tokens are accepted; the one of the 200 example
// (whose time field is three days late) and the pageToken parameter's example both point past
// the newest record, so they answer the first page.
func TestDocumentedPageToken(t *testing.T) {
	h := newTestHandler(t)
	first := qualifiers(list(t, h, listPath+"?maxResults=2").Items)
	for _, tok := range []string{
		"A:1795426887015000:4521983374650012871:calendar:C03az79cb",
		"A:1795424400000000:-8675309123456789:calendar:C03az79cb",
	} {
		got := qualifiers(list(t, h, listPath+"?maxResults=2&pageToken="+tok).Items)
		if !reflect.DeepEqual(got, first) {
			t.Errorf("pageToken=%s: got %v; want %v", tok, got, first)
		}
	}
	got := qualifiers(list(t, h, listPath+"?maxResults=2&pageToken="+documentedToken).Items)
	want := qualifiers(list(t, h, listPath+"?maxResults=4").Items)[2:]
	if !reflect.DeepEqual(got, want) {
		t.Errorf("pageToken=%s: got %v; want %v", documentedToken, got, want)
	}
}

// TestContentType: the body is JSON in UTF-8, like the real API's.
func TestContentType(t *testing.T) {
	w := serve(t, newTestHandler(t), withToken(listPath), nil)
	if got, want := w.Header().Get("Content-Type"), "application/json; charset=UTF-8"; got != want {
		t.Errorf("Content-Type: got %q; want %q", got, want)
	}
	if w.Code != http.StatusOK {
		t.Errorf("status: got %d; want 200", w.Code)
	}
}
