package fetch

import (
	"strings"
	"testing"
)

func TestPlanSendsEachRequestToOnePlace(t *testing.T) {
	defer Configure(Config{})
	defer UseRealAPI("entities", nil)
	const origin = "http://127.0.0.1:8000"
	for _, tc := range []struct {
		name string
		cfg  Config
		real *RealAPI
		url  string
		want Route
	}{
		{"the server gets /proxy as is", Config{}, nil, "/proxy/chat/v1/chat/completions",
			Route{Via: ViaNetwork, URL: "/proxy/chat/v1/chat/completions"}},
		{"static: /proxy goes to the sandbox module", Config{Static: true}, nil, "/proxy/pagination/cursor/items/?cursor=abc",
			Route{Via: ViaSandbox, URL: "/proxy/pagination/cursor/items/?cursor=abc", Slug: "pagination"}},
		{"static under a base: the catalog is fetched under it", Config{Static: true, Base: "/api/"}, nil, "/catalog.json",
			Route{Via: ViaNetwork, URL: "/api/catalog.json"}},
		{"static under a base: an absolute link of the site goes to the sandbox", Config{Static: true, Base: "/api"}, nil,
			origin + "/api/proxy/pagination/cursor/items/?cursor=x",
			Route{Via: ViaSandbox, URL: "/proxy/pagination/cursor/items/?cursor=x", Slug: "pagination"}},
		{"another host is fetched as is", Config{Static: true}, nil, "https://example.org/proxy/x",
			Route{Via: ViaNetwork, URL: "https://example.org/proxy/x"}},
		{"static with a real API: the key goes in the query", Config{Static: true},
			&RealAPI{BaseURL: "https://kgsearch.googleapis.com/", Key: "k&y", Auth: Auth{In: "query", Name: "key"}},
			"/proxy/entities/v1/entities:search?query=paris",
			Route{Via: ViaRealAPI, URL: "https://kgsearch.googleapis.com/v1/entities:search?query=paris&key=k%26y", Slug: "entities"}},
		{"static: a walkthrough's run goes to the sandbox module", Config{Static: true, Base: "/api"}, nil,
			"/walkthroughs/entities-search-then-lookup/run",
			Route{Via: ViaSandbox, URL: "/walkthroughs/entities-search-then-lookup/run"}},
		{"static: a document's run goes to the sandbox module", Config{Static: true}, nil, "/walkthroughs/run",
			Route{Via: ViaSandbox, URL: "/walkthroughs/run"}},
		{"static: a document's check goes to the sandbox module", Config{Static: true}, nil, "/walkthroughs/check",
			Route{Via: ViaSandbox, URL: "/walkthroughs/check"}},
		{"static: a recording goes to the sandbox module", Config{Static: true, Base: "/api"}, nil, "/walkthroughs/record",
			Route{Via: ViaSandbox, URL: "/walkthroughs/record"}},
		{"static: the retired step protocol is not a tool", Config{Static: true}, nil, "/walkthroughs/w/step",
			Route{Via: ViaNetwork, URL: "/walkthroughs/w/step"}},
		{"static: the script syntax check goes to the sandbox module", Config{Static: true}, nil, "/tools/script/syntax",
			Route{Via: ViaSandbox, URL: "/tools/script/syntax"}},
		{"static under a base: the site's own link to a tool goes to the sandbox", Config{Static: true, Base: "/api"}, nil,
			origin + "/api/tools/script/syntax", Route{Via: ViaSandbox, URL: "/tools/script/syntax"}},
		{"static with a real API: the tools still go to the sandbox module", Config{Static: true},
			&RealAPI{BaseURL: "https://kgsearch.googleapis.com", Key: "k", Auth: Auth{In: "query", Name: "key"}},
			"/walkthroughs/entities-search-then-lookup/run",
			Route{Via: ViaSandbox, URL: "/walkthroughs/entities-search-then-lookup/run"}},
		{"static: a walkthrough's page is a file of the site", Config{Static: true, Base: "/api"}, nil,
			"/walkthroughs/entities-search-then-lookup", Route{Via: ViaNetwork, URL: "/api/walkthroughs/entities-search-then-lookup"}},
		{"static: a run path with more segments is not a tool", Config{Static: true}, nil, "/walkthroughs/a/b/run",
			Route{Via: ViaNetwork, URL: "/walkthroughs/a/b/run"}},
		{"static: a run without an id is not a tool", Config{Static: true}, nil, "/walkthroughs//run",
			Route{Via: ViaNetwork, URL: "/walkthroughs//run"}},
		{"static: the inference of an API of your own goes to the sandbox module", Config{Static: true, Base: "/api"}, nil,
			"/sandbox/pets/_sandbox/inference", Route{Via: ViaSandbox, URL: "/sandbox/pets/_sandbox/inference"}},
		{"static: another sandbox path is a file of the site", Config{Static: true}, nil, "/sandbox/docs/_images/a.png",
			Route{Via: ViaNetwork, URL: "/sandbox/docs/_images/a.png"}},
		{"the server answers the inference itself", Config{}, nil, "/sandbox/pets/_sandbox/inference",
			Route{Via: ViaNetwork, URL: "/sandbox/pets/_sandbox/inference"}},
		{"the server answers its tools itself", Config{}, nil, "/walkthroughs/entities-search-then-lookup/run",
			Route{Via: ViaNetwork, URL: "/walkthroughs/entities-search-then-lookup/run"}},
		{"the server answers the syntax check under its base", Config{Base: "/api"}, nil, "/tools/script/syntax",
			Route{Via: ViaNetwork, URL: "/api/tools/script/syntax"}},
		{"static with a real API: a sandbox-only call is never sent to it", Config{Static: true},
			&RealAPI{BaseURL: "https://search.example", Key: "k", Auth: Auth{In: "header", Name: "Authorization"}},
			"/proxy/entities/_sandbox/state",
			Route{Via: ViaRefused, URL: "/proxy/entities/_sandbox/state", Slug: "entities", Refused: refusedSandboxOnly}},
		{"static with a real API: nor with dot segments or escapes", Config{Static: true},
			&RealAPI{BaseURL: "https://search.example", Key: "k", Auth: Auth{In: "header", Name: "Authorization"}},
			"/proxy/entities/./%5Fsandbox/nodes/n1/_stop?x=1",
			Route{Via: ViaRefused, URL: "/proxy/entities/./%5Fsandbox/nodes/n1/_stop?x=1", Slug: "entities", Refused: refusedSandboxOnly}},
		{"static with a real API: a path that only contains _sandbox is sent", Config{Static: true},
			&RealAPI{BaseURL: "https://search.example", Key: "k", Auth: Auth{In: "query", Name: "key"}},
			"/proxy/entities/v1/_sandbox",
			Route{Via: ViaRealAPI, URL: "https://search.example/v1/_sandbox?key=k", Slug: "entities"}},
		{"static in the sandbox: its own calls go to the module", Config{Static: true}, nil, "/proxy/entities/_sandbox/state",
			Route{Via: ViaSandbox, URL: "/proxy/entities/_sandbox/state", Slug: "entities"}},
		{"the server ignores a real API set for static mode", Config{},
			&RealAPI{BaseURL: "https://kgsearch.googleapis.com", Key: "k", Auth: Auth{In: "query", Name: "key"}},
			"/proxy/entities/v1/entities:search",
			Route{Via: ViaNetwork, URL: "/proxy/entities/v1/entities:search"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			Configure(tc.cfg)
			UseRealAPI("entities", tc.real)
			if got := Plan(tc.url, origin); got != tc.want {
				t.Errorf("got %+v; want %+v", got, tc.want)
			}
		})
	}
}

// refusedSandboxOnly is what Plan says of a sandbox-only call to a real API.
const refusedSandboxOnly = "this is a call of Loupe's built-in sandbox only (_sandbox/…), and this page sends its calls to the real API, which has no such call: go back to the sandbox to use it"

// TestUseRealAPIForgetsTheKey: going back to the sandbox leaves no key anywhere Plan reads.
func TestUseRealAPIForgetsTheKey(t *testing.T) {
	defer Configure(Config{})
	Configure(Config{Static: true})
	UseRealAPI("entities", &RealAPI{BaseURL: "https://search.example", Key: "s3cr3t", Auth: Auth{In: "query", Name: "key"}})
	if r := Plan("/proxy/entities/v1/x", ""); r.Via != ViaRealAPI || !strings.Contains(r.URL, "s3cr3t") {
		t.Fatalf("with the real API: got %+v", r)
	}
	UseRealAPI("entities", nil)
	if _, ok := RealAPIOf("entities"); ok {
		t.Error("the real API is still set")
	}
	if r := Plan("/proxy/entities/v1/x", ""); r.Via != ViaSandbox || strings.Contains(r.URL, "s3cr3t") {
		t.Errorf("back to the sandbox: got %+v; want the sandbox module, no key", r)
	}
}

func TestAuthHeaderFollowsTheScheme(t *testing.T) {
	for _, tc := range []struct {
		name            string
		api             RealAPI
		wantName, wantV string
	}{
		{"bearer", RealAPI{Key: "t", Auth: Auth{In: "header", Name: "Authorization", Prefix: "Bearer "}}, "Authorization", "Bearer t"},
		{"api key header as typed", RealAPI{Key: "ApiKey abc", Auth: Auth{In: "header", Name: "Authorization"}}, "Authorization", "ApiKey abc"},
		{"query sends no header", RealAPI{Key: "k", Auth: Auth{In: "query", Name: "key"}}, "", ""},
		{"no key sends nothing", RealAPI{Auth: Auth{In: "header", Name: "Authorization"}}, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, v := authHeader(tc.api)
			if n != tc.wantName || v != tc.wantV {
				t.Errorf("got %q: %q; want %q: %q", n, v, tc.wantName, tc.wantV)
			}
		})
	}
}
