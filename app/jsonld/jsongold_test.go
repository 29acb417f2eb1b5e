package jsonld

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/piprate/json-gold/ld"

	"loupe/server/sandbox/entities"
)

// sandboxResponses returns the entity search sandbox's real responses to a
// few queries.
func sandboxResponses(t *testing.T) map[string][]byte {
	t.Helper()
	h, err := entities.New(entities.Options{Key: "k", Data: os.DirFS("../../content")})
	if err != nil {
		t.Fatalf("entities.New: %v", err)
	}
	out := map[string][]byte{}
	for _, q := range []string{
		"query=taylor+swift",
		"query=paris&limit=10",
		"ids=/m/0lc_fra&ids=/m/0lx_mona_lisa&ids=/m/0lx_google",
		"query=physicist&types=Person",
		"query=allemagne&languages=fr&languages=de&languages=en",
		"query=tokyo&languages=ja&indent=true",
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, entities.SearchPath+"?key=k&"+q, nil))
		if rec.Code != http.StatusOK {
			t.Fatalf("?%s: status %d: %s", q, rec.Code, rec.Body)
		}
		out[q] = rec.Body.Bytes()
	}
	return out
}

// iriSets are the IRIs of an expansion, each list sorted.
type iriSets struct {
	Properties, Types, IDs []string
}

func (s *iriSets) sort() {
	sort.Strings(s.Properties)
	sort.Strings(s.Types)
	sort.Strings(s.IDs)
}

// ours collects the IRIs of this package's expansion, leaving out the
// unmapped keys that processors drop.
func ours(t *testing.T, doc []byte) iriSets {
	t.Helper()
	d, err := Expand(doc)
	if err != nil {
		t.Fatalf("Expand: %v", err)
	}
	var s iriSets
	for _, f := range flat(d.Root) {
		k, v, _ := strings.Cut(f, "=")
		switch {
		case k == "@id":
			s.IDs = append(s.IDs, v)
		case k == "@type":
			s.Types = append(s.Types, v)
		case k == "value" || v == "":
		default:
			s.Properties = append(s.Properties, v)
		}
	}
	s.sort()
	return s
}

// theirs collects the IRIs of json-gold's expansion of doc.
func theirs(t *testing.T, doc []byte) iriSets {
	t.Helper()
	var in any
	if err := json.Unmarshal(doc, &in); err != nil {
		t.Fatal(err)
	}
	out, err := ld.NewJsonLdProcessor().Expand(in, ld.NewJsonLdOptions(""))
	if err != nil {
		t.Fatalf("json-gold Expand: %v", err)
	}
	var s iriSets
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case []any:
			for _, x := range v {
				walk(x)
			}
		case map[string]any:
			for k, x := range v {
				switch k {
				case "@id":
					s.IDs = append(s.IDs, x.(string))
				case "@type":
					if _, isValue := v["@value"]; isValue {
						continue
					}
					for _, ty := range x.([]any) {
						s.Types = append(s.Types, ty.(string))
					}
				case "@value", "@language":
				default:
					s.Properties = append(s.Properties, k)
					walk(x)
				}
			}
		}
	}
	walk(out)
	s.sort()
	return s
}

// withKGPrefix marks kg as a prefix in the document's context. JSON-LD 1.1
// processors (json-gold among them) only use a simple term as a prefix when
// its IRI ends in a gen-delim character; "http://g.co/kg" does not, so they
// leave "kg:/m/0dl567" as is. The API means kg as a prefix (JSON-LD 1.0
// rules, which this package follows); "@prefix": true says so in 1.1.
func withKGPrefix(t *testing.T, doc []byte) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(doc, &m); err != nil {
		t.Fatal(err)
	}
	m["@context"].(map[string]any)["kg"] = map[string]any{"@id": "http://g.co/kg", "@prefix": true}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestAgainstJSONGold compares the expansion with a conformant processor on
// the sandbox's real responses.
func TestAgainstJSONGold(t *testing.T) {
	for q, doc := range sandboxResponses(t) {
		got := ours(t, doc)
		if len(got.Properties) == 0 || len(got.IDs) == 0 || len(got.Types) == 0 {
			t.Fatalf("?%s: empty expansion %+v", q, got)
		}
		for _, id := range got.IDs {
			if !strings.HasPrefix(id, "http://g.co/kg/m/") {
				t.Errorf("?%s: @id %s; want it under http://g.co/kg/m/", q, id)
			}
		}
		if want := theirs(t, withKGPrefix(t, doc)); !reflect.DeepEqual(got, want) {
			t.Errorf("?%s:\n got %+v\nwant %+v", q, got, want)
		}
		// With the API's context as is, json-gold agrees on every property
		// and type, and keeps the ids compact.
		plain := theirs(t, doc)
		if !reflect.DeepEqual(got.Properties, plain.Properties) || !reflect.DeepEqual(got.Types, plain.Types) {
			t.Errorf("?%s: properties or types differ from json-gold:\n got %+v\nwant %+v", q, got, plain)
		}
		for _, id := range plain.IDs {
			if !strings.HasPrefix(id, "kg:/m/") {
				t.Errorf("?%s: json-gold @id %s; want kg:/m/... (JSON-LD 1.1 prefix rule)", q, id)
			}
		}
	}
}

// TestEntitiesOnSandbox reads cards from real responses.
func TestEntitiesOnSandbox(t *testing.T) {
	docs := sandboxResponses(t)
	tests := []struct {
		query    string
		wantName string
		wantIRI  string
		wantLang string
	}{
		{"query=taylor+swift", "Taylor Swift", "http://g.co/kg/m/0dl567", ""},
		{"ids=/m/0lc_fra&ids=/m/0lx_mona_lisa&ids=/m/0lx_google", "Google", "http://g.co/kg/m/0lx_google", ""}, // ranked by score
		{"query=allemagne&languages=fr&languages=de&languages=en", "Allemagne", "http://g.co/kg/m/0lc_deu", "fr"},
		{"query=tokyo&languages=ja&indent=true", "東京", "http://g.co/kg/m/0lt_jpn", ""},
	}
	for _, tt := range tests {
		es, err := Entities(docs[tt.query])
		if err != nil || len(es) == 0 {
			t.Errorf("?%s: got %v, %v", tt.query, es, err)
			continue
		}
		e := es[0]
		if e.Name != tt.wantName || e.IRI != tt.wantIRI || e.Names[0].Language != tt.wantLang || !e.HasScore || e.ResultScore <= 0 || e.Detailed == nil || e.Detailed.License == "" {
			t.Errorf("?%s: got %+v; want %s %s (%q) with score and detailed description", tt.query, e, tt.wantName, tt.wantIRI, tt.wantLang)
		}
	}
	es, _ := Entities(docs["ids=/m/0lc_fra&ids=/m/0lx_mona_lisa&ids=/m/0lx_google"])
	if len(es) != 3 || es[0].URL != "https://about.google/" || es[1].Image == nil || !strings.Contains(es[1].Image.ContentURL, "Flag_of_France.svg") || es[2].Name != "Mona Lisa" {
		t.Errorf("got %+v; want Google with its site, France with its flag, then Mona Lisa", es)
	}
}
