package entities

import (
	"bytes"
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"
)

func TestSearchQuery(t *testing.T) {
	tests := []struct {
		params    string
		wantFirst string
		wantID    string
	}{
		{"query=taylor+swift", "Taylor Swift", "kg:/m/0dl567"},
		{"query=TAYLOR%20SWIFT", "Taylor Swift", "kg:/m/0dl567"},
		{"query=paris", "Paris", "kg:/m/0lt_fra"},
		{"query=france", "France", "kg:/m/0lc_fra"},
		{"query=einstein", "Albert Einstein", "kg:/m/0lx_einstein"},
		{"query=bogota", "Bogotá", "kg:/m/0lt_col"},                  // diacritics folded
		{"query=Frankreich", "France", "kg:/m/0lc_fra"},              // German name, English output
		{"query=la+joconde", "Mona Lisa", "kg:/m/0lx_mona_lisa"},     // French alias
		{"query=東京", "Tokyo", "kg:/m/0lt_jpn"},                       // Japanese name
		{"query=physicist", "Albert Einstein", "kg:/m/0lx_einstein"}, // description match
		{"query=MIT", "Massachusetts Institute of Technology", "kg:/m/0lx_mit"},
	}
	for _, tt := range tests {
		items := search(t, tt.params)
		if len(items) == 0 {
			t.Errorf("?%s: got no results; want %s first", tt.params, tt.wantFirst)
			continue
		}
		if got := names(items)[0]; got != tt.wantFirst || items[0].Result.ID != tt.wantID {
			t.Errorf("?%s: got first %q (%s); want %q (%s)", tt.params, got, items[0].Result.ID, tt.wantFirst, tt.wantID)
		}
		for i := 1; i < len(items); i++ {
			if items[i].ResultScore > items[i-1].ResultScore {
				t.Errorf("?%s: scores not descending at %d: %v > %v", tt.params, i, items[i].ResultScore, items[i-1].ResultScore)
			}
		}
		if items[0].ResultScore < 100 {
			t.Errorf("?%s: got top resultScore %v; want a real-looking magnitude (>= 100)", tt.params, items[0].ResultScore)
		}
	}
}

func TestSearchNoMatch(t *testing.T) {
	for _, params := range []string{"query=zzzqqqxxx", "query=", "", "query=tay"} {
		if got := search(t, params); len(got) != 0 {
			t.Errorf("?%s: got %v; want no results", params, names(got))
		}
	}
}

func TestPrefix(t *testing.T) {
	tests := []struct {
		params string
		want   string // a name that must be among the results
	}{
		{"query=tay&prefix=true", "Taylor Swift"},
		{"query=vien&prefix=true", "Vienna"},
		{"query=vien&prefix=true", "Vientiane"},
		{"query=Eiff&prefix=true", "Eiffel Tower"},
		{"query=ein&prefix=true", "Albert Einstein"}, // alias "Einstein"
		{"query=jean-s&prefix=true", "Johann Sebastian Bach"},
	}
	for _, tt := range tests {
		got := names(search(t, tt.params))
		found := false
		for _, n := range got {
			found = found || n == tt.want
		}
		if !found {
			t.Errorf("?%s: got %v; want %q among them", tt.params, got, tt.want)
		}
	}
	// Without prefix, a partial word matches nothing.
	if got := search(t, "query=vien"); len(got) != 0 {
		t.Errorf("?query=vien: got %v; want none without prefix", names(got))
	}
}

func TestIDs(t *testing.T) {
	tests := []struct {
		params string
		want   []string
	}{
		{"ids=/m/0dl567", []string{"kg:/m/0dl567"}},
		{"ids=kg:/m/0dl567&ids=/m/0lc_fra", []string{"kg:/m/0dl567", "kg:/m/0lc_fra"}},
		{"ids=/m/0lc_fra,/m/0lc_deu", []string{"kg:/m/0lc_fra", "kg:/m/0lc_deu"}},
		{"ids=/m/unknown&ids=/m/0lc_deu", []string{"kg:/m/0lc_deu"}},
		{"ids=/m/0lc_deu&ids=kg:/m/0lc_deu", []string{"kg:/m/0lc_deu"}}, // duplicates collapse
		{"ids=/m/0dl567&ids=/m/0lc_fra&types=Country", []string{"kg:/m/0lc_fra"}},
		{"ids=/m/0dl567&ids=/m/0lc_fra&query=france", []string{"kg:/m/0lc_fra"}},
	}
	for _, tt := range tests {
		var got []string
		for _, it := range search(t, tt.params) {
			got = append(got, it.Result.ID)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("?%s: got %v; want %v", tt.params, got, tt.want)
		}
	}
}

func TestTypes(t *testing.T) {
	tests := []struct {
		params string
		anyOf  []string
	}{
		{"query=paris&types=Event", []string{"Event"}},
		{"query=paris&types=Place&limit=50", []string{"Place"}},
		{"query=paris&types=Event&types=TouristAttraction", []string{"Event", "TouristAttraction"}},
		{"query=the&types=Book,Movie", []string{"Book", "Movie"}},
		{"query=apple&types=Corporation", []string{"Corporation"}},
		{"query=einstein&types=person", []string{"Person"}},
	}
	for _, tt := range tests {
		items := search(t, tt.params)
		if len(items) == 0 {
			t.Errorf("?%s: got no results", tt.params)
		}
		for _, it := range items {
			ok := false
			for _, ty := range it.Result.Type {
				for _, w := range tt.anyOf {
					ok = ok || ty == w
				}
			}
			if !ok || it.Result.Type[0] != "Thing" {
				t.Errorf("?%s: %s has types %v; want Thing first and one of %v", tt.params, it.Result.ID, it.Result.Type, tt.anyOf)
			}
		}
	}
	if got := search(t, "query=paris&types=Movie"); len(got) != 0 {
		t.Errorf("?query=paris&types=Movie: got %v; want none", names(got))
	}
}

func TestLanguages(t *testing.T) {
	tests := []struct {
		params   string
		wantName string
		wantDesc string
	}{
		{"ids=/m/0lc_deu", `"Germany"`, `"Country in Western Europe"`},
		{"ids=/m/0lc_deu&languages=de", `"Deutschland"`, `"Staat in Westeuropa"`},
		{"ids=/m/0lc_deu&languages=fr", `"Allemagne"`, `"Pays d'Europe de l'Ouest"`},
		{"ids=/m/0lc_deu&languages=es", `"Alemania"`, `"País de Europa Occidental"`},
		{"ids=/m/0lc_deu&languages=ja", `"ドイツ"`, `"Country in Western Europe"`}, // no Japanese description: English
		{"query=vienne&languages=fr", `"Vienne"`, `"Capitale (Autriche)"`},
		{"ids=/m/0lc_deu&languages=en&languages=de", `[{"@language":"en","@value":"Germany"},{"@language":"de","@value":"Deutschland"}]`,
			`[{"@language":"en","@value":"Country in Western Europe"},{"@language":"de","@value":"Staat in Westeuropa"}]`},
	}
	for _, tt := range tests {
		items := search(t, tt.params)
		if len(items) == 0 {
			t.Errorf("?%s: got no results", tt.params)
			continue
		}
		if got := string(items[0].Result.Name); got != tt.wantName {
			t.Errorf("?%s: got name %s; want %s", tt.params, got, tt.wantName)
		}
		if got := string(items[0].Result.Description); got != tt.wantDesc {
			t.Errorf("?%s: got description %s; want %s", tt.params, got, tt.wantDesc)
		}
	}
	// Localized detailed description.
	items := search(t, "ids=/m/0lc_deu&languages=de")
	if !bytes.Contains(items[0].Result.Detailed, []byte(`"url":"https://de.wikipedia.org/wiki/Deutschland"`)) {
		t.Errorf("got detailedDescription %s; want the German Wikipedia page", items[0].Result.Detailed)
	}
}

func TestLimit(t *testing.T) {
	tests := []struct {
		params string
		want   int
	}{
		{"query=paris&limit=1", 1},
		{"query=paris&limit=3", 3},
		{"query=capital", 20},            // default limit; 249 capitals match
		{"query=capital&limit=500", 249}, // every capital: "Capital of ..."
		{"query=capital&limit=21", 21},
		{"query=country&limit=500", 195}, // independent countries: "Country in ..."
	}
	for _, tt := range tests {
		if got := len(search(t, tt.params)); got != tt.want {
			t.Errorf("?%s: got %d results; want %d", tt.params, got, tt.want)
		}
	}
}

func TestIndentAndContext(t *testing.T) {
	wantContext := `{"@vocab":"http://schema.org/","goog":"http://schema.googleapis.com/","resultScore":"goog:resultScore","detailedDescription":"goog:detailedDescription","EntitySearchResult":"goog:EntitySearchResult","kg":"http://g.co/kg"}`
	tests := []struct {
		params     string
		wantIndent bool
	}{
		{"query=paris", false},
		{"query=paris&indent=true", true},
		{"query=paris&indent=false", false},
		{"query=paris&prettyPrint=true", true},
	}
	for _, tt := range tests {
		rec := do(t, http.MethodGet, SearchPath+"?key="+testKey+"&"+tt.params, "")
		body := rec.Body.String()
		if got := strings.HasPrefix(body, "{\n  \"@context\": {\n"); got != tt.wantIndent {
			t.Errorf("?%s: got indented %v; want %v: %.80s", tt.params, got, tt.wantIndent, body)
		}
		var doc struct {
			Context json.RawMessage `json:"@context"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &doc); err != nil {
			t.Fatalf("?%s: %v", tt.params, err)
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, doc.Context); err != nil {
			t.Fatal(err)
		}
		if got := compact.String(); got != wantContext {
			t.Errorf("?%s: got @context %s; want %s", tt.params, got, wantContext)
		}
		if !tt.wantIndent && !strings.HasPrefix(body, `{"@context":`+wantContext+`,"@type":"ItemList","itemListElement":[{"@type":"EntitySearchResult","result":{"@id":"kg:/m/0lt_fra","name":"Paris"`) {
			t.Errorf("?%s: got %.300s; want the API's key order", tt.params, body)
		}
	}
}
