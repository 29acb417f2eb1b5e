package jsonld

import (
	"reflect"
	"testing"
)

// docsSample is the response sample of the API documentation.
const docsSample = `{
  "@context": {"@vocab": "http://schema.org/", "goog": "http://schema.googleapis.com/", "resultScore": "goog:resultScore",
    "detailedDescription": "goog:detailedDescription", "EntitySearchResult": "goog:EntitySearchResult", "kg": "http://g.co/kg"},
  "@type": "ItemList",
  "itemListElement": [{
    "@type": "EntitySearchResult",
    "result": {
      "@id": "kg:/m/0dl567", "name": "Taylor Swift", "@type": ["Thing","Person"],
      "description": "Singer-songwriter",
      "image": {"contentUrl": "https://t1.gstatic.com/images?q=tbn:ANd9GcQmVDAhjhWnN2OWys2ZMO3PGAhupp5tN2LwF_BJmiHgi19hf8Ku",
                "url": "https://en.wikipedia.org/wiki/Taylor_Swift", "license": "http://creativecommons.org/licenses/by-sa/2.0"},
      "detailedDescription": {"articleBody": "Taylor Alison Swift is an American singer-songwriter and actress.",
                              "url": "http://en.wikipedia.org/wiki/Taylor_Swift",
                              "license": "https://en.wikipedia.org/wiki/Wikipedia:Text_of_Creative_Commons_Attribution-ShareAlike_3.0_Unported_License"},
      "url": "http://taylorswift.com/"
    },
    "resultScore": 4850
  }]
}`

func TestEntities(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		want []Entity
	}{
		{"docs sample", docsSample, []Entity{{
			ID: "kg:/m/0dl567", IRI: "http://g.co/kg/m/0dl567",
			Name: "Taylor Swift", Names: []LangString{{"", "Taylor Swift"}},
			Types: []string{"Thing", "Person"}, TypeIRIs: []string{"http://schema.org/Thing", "http://schema.org/Person"},
			Description: "Singer-songwriter",
			Image: &Image{URL: "https://en.wikipedia.org/wiki/Taylor_Swift",
				ContentURL: "https://t1.gstatic.com/images?q=tbn:ANd9GcQmVDAhjhWnN2OWys2ZMO3PGAhupp5tN2LwF_BJmiHgi19hf8Ku",
				License:    "http://creativecommons.org/licenses/by-sa/2.0"},
			Detailed: &Detailed{ArticleBody: "Taylor Alison Swift is an American singer-songwriter and actress.",
				URL:     "http://en.wikipedia.org/wiki/Taylor_Swift",
				License: "https://en.wikipedia.org/wiki/Wikipedia:Text_of_Creative_Commons_Attribution-ShareAlike_3.0_Unported_License"},
			URL: "http://taylorswift.com/", ResultScore: 4850, HasScore: true,
		}}},
		{"several languages", `{"@context":` + googleContext + `,"itemListElement":[{"result":{"@id":"kg:/m/x","name":[{"@language":"fr","@value":"Allemagne"},{"@language":"de","@value":"Deutschland"}],"detailedDescription":[{"inLanguage":"fr","articleBody":"A","url":"u","license":"l"}]},"resultScore":1.5}]}`,
			[]Entity{{ID: "kg:/m/x", IRI: "http://g.co/kg/m/x", Name: "Allemagne",
				Names:    []LangString{{"fr", "Allemagne"}, {"de", "Deutschland"}},
				Detailed: &Detailed{ArticleBody: "A", URL: "u", License: "l"}, ResultScore: 1.5, HasScore: true}}},
		{"other terms, same IRIs", `{"@context":{"s":"http://schema.org/","g":"http://schema.googleapis.com/","items":"s:itemListElement","r":"s:result","n":"s:name","score":"g:resultScore"},"items":[{"r":{"n":"X"},"score":7}]}`,
			[]Entity{{Name: "X", Names: []LangString{{"", "X"}}, ResultScore: 7, HasScore: true}}},
		{"single node", `{"@context":{"@vocab":"http://schema.org/"},"@type":"Person","name":"Ada"}`,
			[]Entity{{Name: "Ada", Names: []LangString{{"", "Ada"}}, Types: []string{"Person"}, TypeIRIs: []string{"http://schema.org/Person"}}}},
		{"empty list", `{"@context":` + googleContext + `,"@type":"ItemList","itemListElement":[]}`, nil},
		{"no entities", `{"@context":{"@vocab":"http://schema.org/"},"foo":1}`, nil},
	}
	for _, tt := range tests {
		got, err := Entities([]byte(tt.doc))
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", tt.name, got, tt.want)
		}
	}
	if _, err := Entities([]byte(`[1,2]`)); err == nil {
		t.Errorf("array document: got no error; want one")
	}
}
