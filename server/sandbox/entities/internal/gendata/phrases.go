package main

import "strings"

// place holds a subregion's name as it appears inside phrases, per language:
// fr and es carry their preposition ("d'Europe de l'Ouest", "de Europa
// Occidental"), de carries "in".
type place struct{ en, fr, de, es string }

var subregions = map[string]place{
	"Caribbean":                 {"the Caribbean", "des Caraïbes", "in der Karibik", "del Caribe"},
	"Eastern Africa":            {"East Africa", "d'Afrique de l'Est", "in Ostafrika", "de África Oriental"},
	"Western Asia":              {"Western Asia", "d'Asie de l'Ouest", "in Westasien", "de Asia Occidental"},
	"Western Africa":            {"West Africa", "d'Afrique de l'Ouest", "in Westafrika", "de África Occidental"},
	"Northern Europe":           {"Northern Europe", "d'Europe du Nord", "in Nordeuropa", "del Norte de Europa"},
	"South America":             {"South America", "d'Amérique du Sud", "in Südamerika", "de América del Sur"},
	"South-Eastern Asia":        {"Southeast Asia", "d'Asie du Sud-Est", "in Südostasien", "del Sudeste Asiático"},
	"Middle Africa":             {"Central Africa", "d'Afrique centrale", "in Zentralafrika", "de África Central"},
	"Southern Europe":           {"Southern Europe", "d'Europe du Sud", "in Südeuropa", "del Sur de Europa"},
	"Polynesia":                 {"Polynesia", "de Polynésie", "in Polynesien", "de Polinesia"},
	"Southern Asia":             {"South Asia", "d'Asie du Sud", "in Südasien", "de Asia del Sur"},
	"Southeast Europe":          {"Southeast Europe", "d'Europe du Sud-Est", "in Südosteuropa", "del Sudeste de Europa"},
	"Western Europe":            {"Western Europe", "d'Europe de l'Ouest", "in Westeuropa", "de Europa Occidental"},
	"Eastern Asia":              {"East Asia", "d'Asie de l'Est", "in Ostasien", "de Asia Oriental"},
	"Central America":           {"Central America", "d'Amérique centrale", "in Mittelamerika", "de América Central"},
	"North America":             {"North America", "d'Amérique du Nord", "in Nordamerika", "de América del Norte"},
	"Northern Africa":           {"North Africa", "d'Afrique du Nord", "in Nordafrika", "del Norte de África"},
	"Micronesia":                {"Micronesia", "de Micronésie", "in Mikronesien", "de Micronesia"},
	"Central Europe":            {"Central Europe", "d'Europe centrale", "in Mitteleuropa", "de Europa Central"},
	"Australia and New Zealand": {"Oceania", "d'Océanie", "in Ozeanien", "de Oceanía"},
	"Southern Africa":           {"Southern Africa", "d'Afrique australe", "im südlichen Afrika", "de África Austral"},
	"Melanesia":                 {"Melanesia", "de Mélanésie", "in Melanesien", "de Melanesia"},
	"Central Asia":              {"Central Asia", "d'Asie centrale", "in Zentralasien", "de Asia Central"},
	"Eastern Europe":            {"Eastern Europe", "d'Europe de l'Est", "in Osteuropa", "de Europa del Este"},
	"":                          {"the Southern Ocean", "de l'océan Austral", "im Südlichen Ozean", "del océano Austral"},
}

// flagFile names the Wikimedia Commons file of a country's flag. Commons uses
// "Flag_of_the_X.svg" for names that take an article in English and a few
// names that differ from world-countries' common names.
func flagFile(common string) string {
	overrides := map[string]string{
		"Czechia":                              "the Czech Republic",
		"Ivory Coast":                          "Côte d'Ivoire",
		"DR Congo":                             "the Democratic Republic of the Congo",
		"Republic of the Congo":                "the Republic of the Congo",
		"Türkiye":                              "Turkey",
		"Micronesia":                           "the Federated States of Micronesia",
		"Vatican City":                         "the Vatican City",
		"Caribbean Netherlands":                "the Netherlands",
		"Macau":                                "Macau",
		"Hong Kong":                            "Hong Kong",
		"Timor-Leste":                          "East Timor",
		"Palestine":                            "Palestine",
		"Saint Martin":                         "France",
		"Saint Barthélemy":                     "France",
		"Réunion":                              "France",
		"Mayotte":                              "France",
		"Guadeloupe":                           "France",
		"Martinique":                           "France",
		"French Guiana":                        "France",
		"South Georgia":                        "South Georgia and the South Sandwich Islands",
		"Heard Island and McDonald Islands":    "Australia",
		"United States Minor Outlying Islands": "the United States",
		"Svalbard and Jan Mayen":               "Norway",
		"Bouvet Island":                        "Norway",
		"Eswatini":                             "Eswatini",
		"Antarctica":                           "the Antarctic Treaty",
		"Åland Islands":                        "Åland",
		"Isle of Man":                          "the Isle of Man",
		"French Southern and Antarctic Lands":  "the French Southern and Antarctic Lands",
		"British Indian Ocean Territory":       "the British Indian Ocean Territory",
		"Saint Helena, Ascension and Tristan da Cunha": "Saint Helena",
		"China":  "the People's Republic of China",
		"Taiwan": "the Republic of China",
	}
	n, ok := overrides[common]
	if !ok {
		n = common
		if needsThe(common) {
			n = "the " + common
		}
	}
	return "Flag_of_" + strings.ReplaceAll(n, " ", "_") + ".svg"
}

func needsThe(common string) bool {
	switch common {
	case "Netherlands", "Philippines", "Bahamas", "Gambia", "Maldives", "Comoros",
		"United Kingdom", "United States", "United Arab Emirates":
		return true
	}
	return strings.HasSuffix(common, "Islands") || strings.HasSuffix(common, "Republic")
}

// wikiTitle turns a name into an English Wikipedia article title.
func wikiTitle(name string) string {
	return strings.ReplaceAll(name, " ", "_")
}
