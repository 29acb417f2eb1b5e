package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"sort"
	"strings"

	"loupe/server/sandbox/entities"
)

// country is the subset of a world-countries record that the dataset uses.
type country struct {
	Name struct {
		Common   string `json:"common"`
		Official string `json:"official"`
	} `json:"name"`
	CCA2         string                           `json:"cca2"`
	CCA3         string                           `json:"cca3"`
	Independent  bool                             `json:"independent"`
	UNMember     bool                             `json:"unMember"`
	Capital      []string                         `json:"capital"`
	AltSpellings []string                         `json:"altSpellings"`
	Region       string                           `json:"region"`
	Subregion    string                           `json:"subregion"`
	Languages    map[string]string                `json:"languages"`
	Currencies   map[string]struct{ Name string } `json:"currencies"`
	Translations map[string]struct {
		Common   string `json:"common"`
		Official string `json:"official"`
	} `json:"translations"`
	Area float64 `json:"area"`
}

// langs maps the ISO 639-3 codes of world-countries to the dataset's ISO 639-1 codes.
var langs = [][2]string{{"fra", "fr"}, {"deu", "de"}, {"spa", "es"}, {"jpn", "ja"}}

// wikiOverrides are English Wikipedia titles that differ from the common name.
var wikiOverrides = map[string]string{
	"Georgia": "Georgia_(country)", "DR Congo": "Democratic_Republic_of_the_Congo",
	"Micronesia": "Federated_States_of_Micronesia", "Türkiye": "Turkey",
	"Czechia": "Czech_Republic", "Palestine": "State_of_Palestine",
	"South Georgia": "South_Georgia_and_the_South_Sandwich_Islands",
	"Saint Martin":  "Collectivity_of_Saint_Martin", "Timor-Leste": "East_Timor",
	"Kingston|Jamaica": "Kingston,_Jamaica", "Kingston|Norfolk Island": "Kingston,_Norfolk_Island",
	"Victoria|Seychelles": "Victoria,_Seychelles", "Georgetown|Guyana": "Georgetown,_Guyana",
	"Hamilton|Bermuda": "Hamilton,_Bermuda", "Saint John's|Antigua and Barbuda": "St._John%27s,_Antigua_and_Barbuda",
	"Washington D.C.|United States": "Washington,_D.C.", "Stanley|Falkland Islands": "Stanley,_Falkland_Islands",
	"San José|Costa Rica": "San_José,_Costa_Rica", "St. George's|Grenada": "St._George%27s,_Grenada",
	"Plymouth|Montserrat": "Plymouth,_Montserrat", "The Valley|Anguilla": "The_Valley,_Anguilla",
	"Jamestown|Saint Helena, Ascension and Tristan da Cunha": "Jamestown,_Saint_Helena",
	"Saint-Pierre|Saint Pierre and Miquelon":                 "Saint-Pierre,_Saint_Pierre_and_Miquelon",
	"Saint-Denis|Réunion":                                    "Saint-Denis,_Réunion", "Philipsburg|Sint Maarten": "Philipsburg,_Sint_Maarten",
	"Marigot|Saint Martin": "Marigot,_Saint_Martin", "Gustavia|Saint Barthélemy": "Gustavia,_Saint_Barthélemy",
	"Adamstown|Pitcairn Islands": "Adamstown,_Pitcairn_Islands", "George Town|Cayman Islands": "George_Town,_Cayman_Islands",
	"Douglas|Isle of Man": "Douglas,_Isle_of_Man", "Santiago|Chile": "Santiago", "Victoria|Hong Kong": "Victoria,_Hong_Kong",
	"Oranjestad|Aruba": "Oranjestad,_Aruba", "Oranjestad|Caribbean Netherlands": "Oranjestad,_Sint_Eustatius",
	"San Juan|Puerto Rico": "San_Juan,_Puerto_Rico", "Tripoli|Libya": "Tripoli,_Libya",
	"Basse-Terre|Guadeloupe": "Basse-Terre", "West Island|Cocos (Keeling) Islands": "West_Island,_Cocos_(Keeling)_Islands",
}

func loadCountries(name string) ([]country, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	var cs []country
	if err := json.Unmarshal(b, &cs); err != nil {
		return nil, fmt.Errorf("decoding %s: %w", name, err)
	}
	return cs, nil
}

// popularity is a ranking weight that grows with area and with UN membership;
// world-countries has no population figures.
func (c *country) popularity() float64 {
	p := 400 + 300*math.Log10(c.Area+10)
	if c.UNMember {
		p += 1000
	}
	return math.Round(p)
}

func (c *country) record(cities cityNames) entities.Record {
	r := entities.Record{
		ID:          "/m/0lc_" + strings.ToLower(c.CCA3),
		Types:       expandTypes([]string{"Country"}),
		Name:        map[string]string{"en": c.Name.Common},
		Alias:       map[string][]string{},
		Description: map[string]string{},
		Article:     map[string]entities.Article{},
		Popularity:  c.popularity(),
	}
	addAlias := func(lang, a string) {
		if a == "" || a == r.Name[lang] || len([]rune(a)) < 3 {
			return
		}
		for _, x := range r.Alias[lang] {
			if x == a {
				return
			}
		}
		r.Alias[lang] = append(r.Alias[lang], a)
	}
	addAlias("en", c.Name.Official)
	for _, a := range c.AltSpellings {
		addAlias("en", a)
	}
	for _, l := range langs {
		t, ok := c.Translations[l[0]]
		if !ok {
			continue
		}
		r.Name[l[1]] = t.Common
		addAlias(l[1], t.Official)
	}
	sub := subregions[c.Subregion]
	kind := [4]string{"Country", "Pays", "Staat", "País"}
	if !c.Independent {
		kind = [4]string{"Territory", "Territoire", "Gebiet", "Territorio"}
	}
	r.Description["en"] = kind[0] + " in " + sub.en
	r.Description["fr"] = kind[1] + " " + sub.fr
	r.Description["de"] = kind[2] + " " + sub.de
	r.Description["es"] = kind[3] + " " + sub.es
	title := wikiOverrides[c.Name.Common]
	if title == "" {
		title = wikiTitle(c.Name.Common)
	}
	r.Article["en"] = entities.Article{Body: c.englishBody(), URL: "https://en.wikipedia.org/wiki/" + title}
	caps := c.capitalNames(cities)
	for i, lang := range []string{"fr", "de", "es"} {
		name := r.Name[lang]
		if name == "" {
			continue
		}
		r.Article[lang] = entities.Article{
			Body: localBody(i, c.Independent, name, c.Translations[langs[i][0]].Official, sub, caps[lang], c.Area),
			URL:  "https://" + lang + ".wikipedia.org/wiki/" + wikiTitle(name),
		}
	}
	r.Image = commonsImage(flagFile(c.Name.Common))
	return r
}

// capitalNames returns the capitals' names per language, joined by commas.
func (c *country) capitalNames(cities cityNames) map[string]string {
	out := map[string]string{}
	for _, lang := range []string{"fr", "de", "es"} {
		var ns []string
		for _, cap := range c.Capital {
			n := cities[cap][lang]
			if n == "" {
				n = cap
			}
			ns = append(ns, n)
		}
		out[lang] = strings.Join(ns, ", ")
	}
	return out
}

func (c *country) englishBody() string {
	var b strings.Builder
	kind := "country"
	if !c.Independent {
		kind = "territory"
	}
	fmt.Fprintf(&b, "%s, officially %s, is a %s in %s.", c.Name.Common, c.Name.Official, kind, subregions[c.Subregion].en)
	switch len(c.Capital) {
	case 0:
	case 1:
		fmt.Fprintf(&b, " Its capital is %s.", c.Capital[0])
	default:
		fmt.Fprintf(&b, " Its capitals are %s.", strings.Join(c.Capital, ", "))
	}
	if ls := sortedValues(c.Languages); len(ls) == 1 {
		fmt.Fprintf(&b, " Its official language is %s.", ls[0])
	} else if len(ls) > 1 {
		fmt.Fprintf(&b, " Its official languages are %s.", strings.Join(ls, ", "))
	}
	if c.Area > 0 {
		fmt.Fprintf(&b, " It covers %s km².", groupThousands(c.Area))
	}
	var curs []string
	for _, cur := range c.Currencies {
		curs = append(curs, cur.Name)
	}
	sort.Strings(curs)
	if len(curs) > 0 {
		fmt.Fprintf(&b, " Currency: %s.", strings.Join(curs, ", "))
	}
	if c.UNMember {
		b.WriteString(" It is a member of the United Nations.")
	}
	return b.String()
}

// localBody writes a short article in French (0), German (1) or Spanish (2).
func localBody(i int, independent bool, name, official string, sub place, capitals string, area float64) string {
	var b strings.Builder
	switch i {
	case 0:
		kind := "territoire"
		if independent {
			kind = "pays"
		}
		fmt.Fprintf(&b, "%s (%s) : %s %s.", name, official, kind, sub.fr)
		if capitals != "" {
			fmt.Fprintf(&b, " Capitale : %s.", capitals)
		}
		if area > 0 {
			fmt.Fprintf(&b, " Superficie : %s km².", strings.ReplaceAll(groupThousands(area), ",", "\u202f"))
		}
	case 1:
		fmt.Fprintf(&b, "%s (%s) liegt %s.", name, official, sub.de)
		if capitals != "" {
			fmt.Fprintf(&b, " Hauptstadt: %s.", capitals)
		}
		if area > 0 {
			fmt.Fprintf(&b, " Fläche: %s km².", strings.ReplaceAll(groupThousands(area), ",", "."))
		}
	case 2:
		kind := "territorio"
		if independent {
			kind = "país"
		}
		fmt.Fprintf(&b, "%s (%s) es un %s %s.", name, official, kind, sub.es)
		if capitals != "" {
			fmt.Fprintf(&b, " Capital: %s.", capitals)
		}
		if area > 0 {
			fmt.Fprintf(&b, " Superficie: %s km².", strings.ReplaceAll(groupThousands(area), ",", "."))
		}
	}
	return b.String()
}

func sortedValues(m map[string]string) []string {
	var out []string
	for _, v := range m {
		out = append(out, v)
	}
	sort.Strings(out)
	return out
}

// groupThousands formats an area like 551,695 (or 0.44 below one).
func groupThousands(f float64) string {
	if f < 1 {
		return fmt.Sprintf("%.2g", f)
	}
	s := fmt.Sprintf("%.0f", f)
	var out []byte
	for i := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}
