package fetch

import "testing"

// TestModulesForEachRequest: each request the sandbox answers goes to its own module: an API's
// calls to that API's, the syntax check to the script API's, an API of your own (its calls and
// what its sandbox inferred) to the module of the APIs of your own, a walkthrough to the engine.
func TestModulesForEachRequest(t *testing.T) {
	m := Modules{APIs: map[string]string{"chat": "/web/v/sandbox-chat.wasm", "script": "/web/v/sandbox-script.wasm"},
		Own: "/web/v/own.wasm", Walkthroughs: "/web/v/walkthroughs.wasm"}
	Configure(Config{Static: true, Modules: m})
	defer Configure(Config{})
	for _, tc := range []struct{ url, want string }{
		{"/proxy/chat/v1/chat/completions", "/web/v/sandbox-chat.wasm"},
		{"/proxy/script/v1/projects?x=1", "/web/v/sandbox-script.wasm"},
		{"/proxy/shelter/pets", "/web/v/own.wasm"},
		{"/tools/script/syntax", "/web/v/sandbox-script.wasm"},
		{"/sandbox/shelter/_sandbox/inference", "/web/v/own.wasm"},
		{"/walkthroughs/entities-search-then-lookup/run", "/web/v/walkthroughs.wasm"},
		{"/walkthroughs/check", "/web/v/walkthroughs.wasm"},
	} {
		r := Plan(tc.url, "")
		if r.Via != ViaSandbox {
			t.Fatalf("%s: got via %d; want the sandbox", tc.url, r.Via)
		}
		if got := m.For(r); got != tc.want {
			t.Errorf("%s: got module %q; want %q", tc.url, got, tc.want)
		}
	}
	if got := (Modules{}).For(Plan("/proxy/chat/x", "")); got != "" {
		t.Errorf("a page without modules: got %q; want none", got)
	}
}

// TestParseModules: the page's JSON is read; what is not JSON says to rebuild the site.
func TestParseModules(t *testing.T) {
	m, err := ParseModules(`{"apis":{"docs":"/a.wasm"},"own":"/o.wasm","walkthroughs":"/w.wasm"}`)
	if err != nil || m.APIs["docs"] != "/a.wasm" || m.Own != "/o.wasm" || m.Walkthroughs != "/w.wasm" {
		t.Errorf("got %+v, %v; want the three modules", m, err)
	}
	if m, err := ParseModules(""); err != nil || m.APIs != nil {
		t.Errorf("no list: got %+v, %v; want none and no error", m, err)
	}
	if _, err := ParseModules("/web/sandboxes.wasm"); err == nil {
		t.Error("an old page's single URL: got no error; want one that says to rebuild")
	}
}
