package server

import (
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// TestOwnAPISandbox: an API of your own with no base_url answers from the sandbox built from
// its document, through the proxy, with the sandbox credential placed as its document says:
// a pet created is read back and listed, a bad request gets problem+json naming the field,
// the inference is served for the API's page, and Reset brings the seed back.
func TestOwnAPISandbox(t *testing.T) {
	ts := ownServer(t, "apis:\n  pets:\n    openapi: testdata/petstore-3.0.yaml\n")
	type listed struct {
		Slug       string `json:"slug"`
		OwnSandbox bool   `json:"ownSandbox"`
	}
	var cat struct{ APIs []listed }
	if got := do(t, "GET", ts.URL+"/catalog.json", ""); json.Unmarshal([]byte(got.body), &cat) != nil ||
		!slices.Contains(cat.APIs, listed{"pets", true}) {
		t.Errorf("catalog.json: got %.300s; want pets marked ownSandbox (its page shows the sandbox)", got.body)
	}
	created := doJSON(t, "POST", ts.URL+"/proxy/pets/pets", `{"name":"Rex","species":"dog"}`)
	if created.StatusCode != http.StatusCreated {
		t.Fatalf("create: got %d %s; want 201", created.StatusCode, created.body)
	}
	var pet map[string]any
	if err := json.Unmarshal([]byte(created.body), &pet); err != nil || pet["name"] != "Rex" || pet["id"] == "" {
		t.Fatalf("create: got %s; want the pet Rex with an id", created.body)
	}
	id, _ := pet["id"].(string)
	if got := do(t, "GET", ts.URL+"/proxy/pets/pets/"+id, ""); got.StatusCode != 200 || !strings.Contains(got.body, `"name":"Rex"`) {
		t.Errorf("read: got %d %s; want 200 with Rex", got.StatusCode, got.body)
	}
	if got := do(t, "GET", ts.URL+"/proxy/pets/pets?species=dog", ""); got.StatusCode != 200 || !strings.Contains(got.body, id) {
		t.Errorf("list: got %d %s; want Rex among the dogs", got.StatusCode, got.body)
	}
	bad := doJSON(t, "POST", ts.URL+"/proxy/pets/pets", `{"species":"cow"}`)
	if bad.StatusCode != http.StatusUnprocessableEntity || bad.Header.Get("Content-Type") != "application/problem+json" ||
		!strings.Contains(bad.body, `"name":"$.name"`) || !strings.Contains(bad.body, `"name":"$.species"`) {
		t.Errorf("bad body: got %d %s %s; want 422 problem+json naming $.name and $.species", bad.StatusCode, bad.Header.Get("Content-Type"), bad.body)
	}
	inf := do(t, "GET", ts.URL+"/sandbox/pets/_sandbox/inference", "")
	var model struct {
		Resources []struct {
			Collection string            `json:"collection"`
			Operations map[string]string `json:"operations"`
		} `json:"resources"`
	}
	if err := json.Unmarshal([]byte(inf.body), &model); err != nil || len(model.Resources) != 1 || model.Resources[0].Operations["create"] != "createPet" {
		t.Errorf("inference: got %d %s; want the /pets collection created by createPet", inf.StatusCode, inf.body)
	}
	if got := do(t, "POST", ts.URL+"/sandbox/pets/_sandbox/reset", ""); got.StatusCode != 200 {
		t.Fatalf("reset: got %d %s", got.StatusCode, got.body)
	}
	if got := do(t, "GET", ts.URL+"/proxy/pets/pets/"+id, ""); got.StatusCode != http.StatusNotFound {
		t.Errorf("after reset: got %d %s; want 404 (the pet was not in the seed)", got.StatusCode, got.body)
	}
}

// doJSON is do with a JSON body.
func doJSON(t *testing.T, method, url, body string) answer {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return answer{resp, string(b)}
}
