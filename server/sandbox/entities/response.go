package entities

// Context is the JSON-LD @context of every response, in the API's key order.
// Note that kg maps to http://g.co/kg, without a trailing slash.
type Context struct {
	Vocab               string `json:"@vocab"`
	Goog                string `json:"goog"`
	ResultScore         string `json:"resultScore"`
	DetailedDescription string `json:"detailedDescription"`
	EntitySearchResult  string `json:"EntitySearchResult"`
	KG                  string `json:"kg"`
}

// APIContext is the @context the Knowledge Graph Search API returns.
var APIContext = Context{
	Vocab:               "http://schema.org/",
	Goog:                "http://schema.googleapis.com/",
	ResultScore:         "goog:resultScore",
	DetailedDescription: "goog:detailedDescription",
	EntitySearchResult:  "goog:EntitySearchResult",
	KG:                  "http://g.co/kg",
}

type itemList struct {
	Context         Context      `json:"@context"`
	Type            string       `json:"@type"`
	ItemListElement []searchItem `json:"itemListElement"`
}

type searchItem struct {
	Type        string     `json:"@type"`
	Result      entityJSON `json:"result"`
	ResultScore float64    `json:"resultScore"`
}

type entityJSON struct {
	ID                  string   `json:"@id"`
	Name                any      `json:"name"`
	Type                []string `json:"@type"`
	Description         any      `json:"description,omitempty"`
	Image               *Image   `json:"image,omitempty"`
	DetailedDescription any      `json:"detailedDescription,omitempty"`
	URL                 string   `json:"url,omitempty"`
}

type detailedDescription struct {
	InLanguage  string `json:"inLanguage,omitempty"`
	ArticleBody string `json:"articleBody"`
	URL         string `json:"url"`
	License     string `json:"license"`
}

// langValue is a JSON-LD language-tagged string, used when several
// languages are requested.
type langValue struct {
	Language string `json:"@language"`
	Value    string `json:"@value"`
}

// render builds the response document for hits in the requested languages.
// With one language, name and description are plain strings; with several,
// they are arrays of language-tagged values. A field missing in a requested
// language falls back to English.
func (ix *index) render(hits []hit, langs []string) *itemList {
	out := &itemList{Context: APIContext, Type: "ItemList", ItemListElement: []searchItem{}}
	for _, h := range hits {
		r := ix.entries[h.ent].rec
		e := entityJSON{
			ID:    "kg:" + r.ID,
			Type:  append([]string{"Thing"}, r.Types...),
			Image: r.Image,
			URL:   r.URL,
		}
		if len(langs) == 1 {
			e.Name = localized(r.Name, langs[0])
			if d := localized(r.Description, langs[0]); d != "" {
				e.Description = d
			}
			if a, ok := ix.article(r, langs[0]); ok {
				e.DetailedDescription = a
			}
		} else {
			e.Name = tagged(r.Name, langs)
			if d := tagged(r.Description, langs); len(d) > 0 {
				e.Description = d
			}
			var arts []detailedDescription
			seen := map[string]bool{}
			for _, l := range langs {
				if a, ok := ix.article(r, l); ok && !seen[a.URL] {
					seen[a.URL] = true
					a.InLanguage = l
					if _, own := r.Article[l]; !own {
						a.InLanguage = "en"
					}
					arts = append(arts, a)
				}
			}
			if len(arts) > 0 {
				e.DetailedDescription = arts
			}
		}
		out.ItemListElement = append(out.ItemListElement, searchItem{Type: "EntitySearchResult", Result: e, ResultScore: h.score})
	}
	return out
}

func (ix *index) article(r *Record, lang string) (detailedDescription, bool) {
	a, ok := r.Article[lang]
	if !ok {
		a, ok = r.Article["en"]
	}
	if !ok {
		return detailedDescription{}, false
	}
	lic := a.License
	if lic == "" {
		lic = ix.license
	}
	return detailedDescription{ArticleBody: a.Body, URL: a.URL, License: lic}, true
}

func localized(m map[string]string, lang string) string {
	if v, ok := m[lang]; ok {
		return v
	}
	return m["en"]
}

// tagged returns the values of m in langs as language-tagged values,
// skipping duplicates of the same text in the same language.
func tagged(m map[string]string, langs []string) []langValue {
	var out []langValue
	for _, l := range langs {
		if v, ok := m[l]; ok {
			out = append(out, langValue{Language: l, Value: v})
		}
	}
	if len(out) == 0 && m["en"] != "" {
		out = append(out, langValue{Language: "en", Value: m["en"]})
	}
	return out
}
