package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// cityNames maps an English city name to its name in other languages.
type cityNames map[string]map[string]string

// loadCityNames reads CLDR time-zone exemplar cities for langs. CLDR stores a
// translated exemplar city only where it differs from the English one, which
// is the zone id's last part with underscores as spaces, unless the English
// locale itself overrides it.
func loadCityNames(dir string, langs []string) (cityNames, error) {
	en, err := readZones(dir, "en")
	if err != nil {
		return nil, err
	}
	out := cityNames{}
	for _, lang := range langs {
		z, err := readZones(dir, lang)
		if err != nil {
			return nil, err
		}
		for id, name := range z {
			english := en[id]
			if english == "" {
				english = strings.ReplaceAll(id[strings.LastIndex(id, "/")+1:], "_", " ")
			}
			if out[english] == nil {
				out[english] = map[string]string{}
			}
			out[english][lang] = name
		}
	}
	return out, nil
}

// readZones returns zone id -> exemplar city for one CLDR locale.
func readZones(dir, lang string) (map[string]string, error) {
	name := filepath.Join(dir, lang, "timeZoneNames.json")
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	var doc struct {
		Main map[string]struct {
			Dates struct {
				TimeZoneNames struct {
					Zone map[string]json.RawMessage `json:"zone"`
				} `json:"timeZoneNames"`
			} `json:"dates"`
		} `json:"main"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("decoding %s: %w", name, err)
	}
	out := map[string]string{}
	for area, raw := range doc.Main[lang].Dates.TimeZoneNames.Zone {
		walkZones(area, raw, out)
	}
	return out, nil
}

// walkZones descends the nested zone tree (Area/City or Area/Sub/City).
func walkZones(prefix string, raw json.RawMessage, out map[string]string) {
	var node map[string]json.RawMessage
	if json.Unmarshal(raw, &node) != nil {
		return
	}
	if c, ok := node["exemplarCity"]; ok {
		var s string
		if json.Unmarshal(c, &s) == nil {
			out[prefix] = s
		}
		return
	}
	for k, v := range node {
		if strings.HasPrefix(k, "_") {
			continue
		}
		walkZones(prefix+"/"+k, v, out)
	}
}
