package script

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestCredentials checks every way a credential may arrive, and the errors for a wrong one.
func TestCredentials(t *testing.T) {
	h := New(Options{Key: "k1"})
	const path = "/v1/projects/" + SeedScriptID
	tests := []struct {
		name, target, auth string
		wantCode           int
		wantStatus         string
	}{
		{"bearer", path, "Bearer k1", 200, ""},
		{"bearer lower-case scheme", path, "bearer k1", 200, ""},
		{"key parameter", path + "?key=k1", "", 200, ""},
		{"access_token parameter", path + "?access_token=k1", "", 200, ""},
		{"none", path, "", 401, "UNAUTHENTICATED"},
		{"wrong bearer", path, "Bearer nope", 401, "UNAUTHENTICATED"},
		{"basic scheme", path, "Basic azE=", 401, "UNAUTHENTICATED"},
		{"wrong access_token", path + "?access_token=nope", "", 401, "UNAUTHENTICATED"},
		{"wrong key", path + "?key=nope", "", 400, "INVALID_ARGUMENT"},
		{"default key refused when configured", path, "Bearer loupe-sandbox-key", 401, "UNAUTHENTICATED"},
	}
	for _, tt := range tests {
		code, v := callAuth(t, h, "GET", tt.target, "", tt.auth)
		if code != tt.wantCode {
			t.Errorf("%s: got %d; want %d (%s)", tt.name, code, tt.wantCode, js(v))
		}
		if st, _ := errorOf(v); st != tt.wantStatus {
			t.Errorf("%s: status got %q; want %q", tt.name, st, tt.wantStatus)
		}
	}
	// The zero Options accept sandbox.DefaultKey.
	if code, _ := call(t, New(Options{}), "GET", path, ""); code != 200 {
		t.Errorf("default key: got %d; want 200", code)
	}
}

// TestRouting checks that unknown paths and methods get a Google 404, before the credential.
func TestRouting(t *testing.T) {
	h, _ := newTest(t)
	tests := []struct{ method, path string }{
		{"GET", "/"},
		{"GET", "/v2/projects"},
		{"GET", "/v1/projects"},
		{"DELETE", "/v1/projects/" + SeedScriptID},
		{"POST", "/v1/projects/" + SeedScriptID + "/content"},
		{"GET", "/v1/projects/" + SeedScriptID + "/nothing"},
		{"GET", "/v1/projects//content"},
		{"GET", "/v1/scripts/" + SeedDeploymentID + ":run"},
		{"POST", "/v1/scripts/" + SeedDeploymentID},
		{"PUT", "/v1/projects/" + SeedScriptID + "/versions/1"},
	}
	for _, tt := range tests {
		code, v := callAuth(t, h, tt.method, tt.path, "", "")
		if st, _ := errorOf(v); code != http.StatusNotFound || st != "NOT_FOUND" {
			t.Errorf("%s %s: got %d %s; want 404 NOT_FOUND", tt.method, tt.path, code, st)
		}
	}
}

// TestMounted checks the handler under the server's prefix, as sandbox.Mux mounts it.
func TestMounted(t *testing.T) {
	h, _ := newTest(t)
	srv := httptest.NewServer(http.StripPrefix("/sandbox/script", h))
	defer srv.Close()
	req, _ := http.NewRequest("GET", srv.URL+"/sandbox/script/v1/projects/"+SeedScriptID+"/versions/3", nil)
	req.Header.Set("Authorization", "Bearer loupe-sandbox-key")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got, want := resp.StatusCode, 200; got != want {
		t.Errorf("got %d; want %d", got, want)
	}
}
