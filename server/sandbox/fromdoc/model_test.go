package fromdoc

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"testing"

	"loupe/app/catalog"
)

// TestInferenceDecodesInTheApp: GET _sandbox/inference answers the Model, which the API's page
// decodes as catalog.SandboxInference with no field left over or lost.
func TestInferenceDecodesInTheApp(t *testing.T) {
	d, err := Load("shelter", []byte(hintedDoc))
	if err != nil {
		t.Fatal(err)
	}
	h, _ := ParseHints(map[string]any{"stateless": []any{"getAnimal"}})
	s, err := New(Options{Name: "shelter", Document: d, Hints: h})
	if err != nil {
		t.Fatal(err)
	}
	w := httptest.NewRecorder()
	s.ServeHTTP(w, httptest.NewRequest("GET", InferencePath, nil))
	if w.Code != 200 || w.Header().Get("Content-Type") != "application/json" {
		t.Fatalf("got %d %s; want 200 JSON", w.Code, w.Header().Get("Content-Type"))
	}
	var got catalog.SandboxInference
	dec := json.NewDecoder(bytes.NewReader(w.Body.Bytes()))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&got); err != nil {
		t.Fatalf("decoding %s as the app does: %v", w.Body, err)
	}
	again, _ := json.Marshal(got)
	var a, b any
	_ = json.Unmarshal(again, &a)
	_ = json.Unmarshal(w.Body.Bytes(), &b)
	if ja, jb := mustJSON(a), mustJSON(b); ja != jb {
		t.Errorf("the app's decoding loses fields:\n got %s\nwant %s", ja, jb)
	}
	if len(got.Resources) != 1 || got.Resources[0].Operations["create"] != "admit" || got.Resources[0].ID != "tag" ||
		len(got.Hints) != 3 || len(got.Stateless) != 1 || got.Stateless[0] != "getAnimal" {
		t.Errorf("got %+v; want the animals kept by tag, admit creating, getAnimal stateless, three hints", got)
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
