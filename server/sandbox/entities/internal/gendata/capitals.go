package main

import (
	"fmt"
	"math"
	"strings"

	"loupe/server/sandbox/entities"
)

// capitals returns one City record per capital of the country.
func (c *country) capitals(cities cityNames) []entities.Record {
	var out []entities.Record
	for i, capName := range c.Capital {
		id := "/m/0lt_" + strings.ToLower(c.CCA3)
		if i > 0 {
			id += fmt.Sprintf("_%d", i+1)
		}
		r := entities.Record{
			ID:          id,
			Types:       expandTypes([]string{"City"}),
			Name:        map[string]string{"en": capName},
			Description: map[string]string{},
			Popularity:  math.Round(c.popularity() * 0.8),
		}
		for lang, n := range cities[capName] {
			if lang == "ja" || n != capName {
				r.Name[lang] = n
			}
		}
		for _, l := range langs {
			if r.Name[l[1]] == "" && l[1] != "ja" {
				r.Name[l[1]] = capName
			}
		}
		countryName := func(lang string) string {
			for _, l := range langs {
				if l[1] == lang {
					if t := c.Translations[l[0]].Common; t != "" {
						return t
					}
				}
			}
			return c.Name.Common
		}
		r.Description["en"] = "Capital of " + c.Name.Common
		r.Description["fr"] = "Capitale (" + countryName("fr") + ")"
		r.Description["de"] = "Hauptstadt von " + countryName("de")
		r.Description["es"] = "Capital de " + countryName("es")
		title := wikiOverrides[capName+"|"+c.Name.Common]
		if title == "" {
			title = wikiTitle(capName)
		}
		body := fmt.Sprintf("%s is the capital of %s, a %s in %s.", capName, c.Name.Common, kindOf(c), subregions[c.Subregion].en)
		if len(c.Capital) > 1 {
			body = fmt.Sprintf("%s is one of the capitals of %s (%s), a %s in %s.", capName, c.Name.Common, strings.Join(c.Capital, ", "), kindOf(c), subregions[c.Subregion].en)
		}
		r.Article = map[string]entities.Article{"en": {Body: body, URL: "https://en.wikipedia.org/wiki/" + title}}
		out = append(out, r)
	}
	return out
}

func kindOf(c *country) string {
	if c.Independent {
		return "country"
	}
	return "territory"
}
