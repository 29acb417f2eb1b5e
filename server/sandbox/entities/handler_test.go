package entities

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
)

const testKey = "test-key"

var (
	testOnce    sync.Once
	testHandler http.Handler
	testErr     error
)

// newTestHandler loads the committed dataset once for all tests.
func newTestHandler(t testing.TB) http.Handler {
	t.Helper()
	testOnce.Do(func() {
		testHandler, testErr = New(Options{Key: testKey, Data: os.DirFS("../../../content")})
	})
	if testErr != nil {
		t.Fatalf("New: %v", testErr)
	}
	return testHandler
}

// do sends a request to the handler and returns the recorder.
func do(t testing.TB, method, target, body string) *httptest.ResponseRecorder {
	t.Helper()
	var req *http.Request
	if body == "" {
		req = httptest.NewRequest(method, target, nil)
	} else {
		req = httptest.NewRequest(method, target, strings.NewReader(body))
	}
	rec := httptest.NewRecorder()
	newTestHandler(t).ServeHTTP(rec, req)
	return rec
}

// result is the part of a response item the tests look at.
type result struct {
	Result struct {
		ID          string          `json:"@id"`
		Name        json.RawMessage `json:"name"`
		Type        []string        `json:"@type"`
		Description json.RawMessage `json:"description"`
		Detailed    json.RawMessage `json:"detailedDescription"`
	} `json:"result"`
	ResultScore float64 `json:"resultScore"`
}

// search runs a successful search and decodes its items.
func search(t *testing.T, params string) []result {
	t.Helper()
	rec := do(t, http.MethodGet, SearchPath+"?key="+testKey+"&"+params, "")
	if rec.Code != http.StatusOK {
		t.Fatalf("GET ?%s: status %d, body %s", params, rec.Code, rec.Body)
	}
	var doc struct {
		Type  string   `json:"@type"`
		Items []result `json:"itemListElement"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &doc); err != nil {
		t.Fatalf("GET ?%s: decoding: %v", params, err)
	}
	if doc.Type != "ItemList" {
		t.Errorf("GET ?%s: @type = %q; want ItemList", params, doc.Type)
	}
	return doc.Items
}

func names(items []result) []string {
	var out []string
	for _, it := range items {
		var s string
		if json.Unmarshal(it.Result.Name, &s) != nil {
			s = string(it.Result.Name)
		}
		out = append(out, s)
	}
	return out
}

func TestNewOptions(t *testing.T) {
	tests := []struct {
		name    string
		opts    Options
		wantErr string
	}{
		{"no key", Options{Data: os.DirFS("../../../content")}, "Key is required"},
		{"no data", Options{Key: "k"}, "Options.Data or Options.JSON is required"},
		{"missing dir", Options{Key: "k", Data: os.DirFS("../../../content"), Dir: "nope"}, "no *.json files"},
		{"bad json", Options{Key: "k", JSON: []byte("{")}, "decoding dataset"},
		{"duplicate id", Options{Key: "k", JSON: []byte(`{"entities":[{"id":"/m/1","types":["Thing"],"name":{"en":"A"}},{"id":"/m/1","types":["Thing"],"name":{"en":"B"}}]}`)}, "duplicate id"},
		{"inline json", Options{Key: "k", JSON: []byte(`{"entities":[{"id":"/m/1","types":["Person"],"name":{"en":"A"}}]}`)}, ""},
	}
	for _, tt := range tests {
		_, err := New(tt.opts)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if tt.wantErr == "" && err != nil || tt.wantErr != "" && !strings.Contains(got, tt.wantErr) {
			t.Errorf("%s: got error %q; want it to contain %q", tt.name, got, tt.wantErr)
		}
	}
}

func TestDatasetSize(t *testing.T) {
	d, err := LoadDataset(os.DirFS("../../../content"), DefaultDir)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(d.Entities); got < 500 {
		t.Errorf("got %d entities; want at least 500", got)
	}
	for _, r := range d.Entities {
		for _, lang := range []string{"en", "fr", "de"} {
			if r.Name[lang] == "" {
				t.Errorf("%s: no %s name", r.ID, lang)
			}
		}
		if r.Description["en"] == "" || r.Article["en"].URL == "" {
			t.Errorf("%s: no English description or article", r.ID)
		}
	}
}

func TestKeyErrors(t *testing.T) {
	tests := []struct {
		name     string
		target   string
		wantCode int
		wantBody string
	}{
		{"missing", SearchPath + "?query=paris", 403, missingKeyBody},
		{"empty", SearchPath + "?key=&query=paris", 403, missingKeyBody},
		{"wrong", SearchPath + "?key=nope&query=paris", 400, invalidKeyBody},
	}
	for _, tt := range tests {
		rec := do(t, http.MethodGet, tt.target, "")
		if rec.Code != tt.wantCode || rec.Body.String() != tt.wantBody {
			t.Errorf("%s: got %d %s; want %d %s", tt.name, rec.Code, rec.Body, tt.wantCode, tt.wantBody)
		}
	}
}

func TestExactErrorBodies(t *testing.T) {
	// The bodies of the reference notes, byte for byte.
	want403 := `{"error":{"code":403,"message":"The request is missing a valid API key.","errors":[{"message":"The request is missing a valid API key.","domain":"global","reason":"forbidden"}],"status":"PERMISSION_DENIED"}}`
	want400 := `{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_INVALID","domain":"googleapis.com","metadata":{"service":"kgsearch.googleapis.com"}}]}}`
	if got := missingKeyBody; got != want403 {
		t.Errorf("got %s; want %s", got, want403)
	}
	if got := invalidKeyBody; got != want400 {
		t.Errorf("got %s; want %s", got, want400)
	}
}

func TestRequestErrors(t *testing.T) {
	q := SearchPath + "?key=" + testKey + "&query=paris"
	tests := []struct {
		name       string
		method     string
		target     string
		body       string
		wantCode   int
		wantStatus string
		wantMsg    string
	}{
		{"body refused", http.MethodGet, q, `{"query":"paris"}`, 400, "INVALID_ARGUMENT", "body must be empty"},
		{"post", http.MethodPost, q, "", 405, "", "Method POST is not allowed"},
		{"delete", http.MethodDelete, q, "", 405, "", "Method DELETE is not allowed"},
		{"unknown path", http.MethodGet, "/v1/entities:lookup?key=" + testKey, "", 404, "NOT_FOUND", "was not found"},
		{"root", http.MethodGet, "/", "", 404, "NOT_FOUND", "was not found"},
		{"limit zero", http.MethodGet, q + "&limit=0", "", 400, "INVALID_ARGUMENT", "between 1 and 500"},
		{"limit 501", http.MethodGet, q + "&limit=501", "", 400, "INVALID_ARGUMENT", "Invalid value at 'limit': 501"},
		{"limit negative", http.MethodGet, q + "&limit=-3", "", 400, "INVALID_ARGUMENT", "between 1 and 500"},
		{"limit text", http.MethodGet, q + "&limit=ten", "", 400, "INVALID_ARGUMENT", `Invalid value at 'limit' (TYPE_INT32), "ten"`},
		{"limit float", http.MethodGet, q + "&limit=2.5", "", 400, "INVALID_ARGUMENT", "TYPE_INT32"},
		{"indent not bool", http.MethodGet, q + "&indent=maybe", "", 400, "INVALID_ARGUMENT", "TYPE_BOOL"},
		{"prefix not bool", http.MethodGet, q + "&prefix=yes", "", 400, "INVALID_ARGUMENT", "'prefix'"},
	}
	for _, tt := range tests {
		rec := do(t, tt.method, tt.target, tt.body)
		var e apiError
		if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil {
			t.Errorf("%s: decoding %s: %v", tt.name, rec.Body, err)
			continue
		}
		if rec.Code != tt.wantCode || e.Error.Code != tt.wantCode || e.Error.Status != tt.wantStatus || !strings.Contains(e.Error.Message, tt.wantMsg) {
			t.Errorf("%s: got %d %s; want %d %s containing %q", tt.name, rec.Code, rec.Body, tt.wantCode, tt.wantStatus, tt.wantMsg)
		}
		if got := rec.Header().Get("Content-Type"); got != "application/json; charset=UTF-8" {
			t.Errorf("%s: Content-Type %q", tt.name, got)
		}
	}
	if got := do(t, http.MethodPost, q, "").Header().Get("Allow"); got != "GET" {
		t.Errorf("405 Allow = %q; want GET", got)
	}
}
