// Command gendata writes the entity search sandbox's dataset,
// content/data/entities/entities.json, from three sources:
//
//   - the npm package world-countries (ODbL 1.0): countries and territories,
//     their names in several languages, capitals, regions and areas;
//   - the npm package cldr-dates-full (Unicode License v3): translated city
//     names (time-zone exemplar cities), used for the capitals;
//   - curated_*.txt beside this file: hand-written people, organizations,
//     creative works, events, products and landmarks.
//
// The Makefile does not run it. To regenerate:
//
//	mkdir -p /tmp/loupe-npm && cd /tmp/loupe-npm && npm install world-countries@5.1.0 cldr-dates-full@48.2.0
//	cd server/sandbox/entities/internal/gendata && go run . -npm /tmp/loupe-npm/node_modules -out ../../../../../content/data/entities/entities.json
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"sort"

	"loupe/server/sandbox/entities"
)

func main() {
	npm := flag.String("npm", "/tmp/loupe-npm/node_modules", "node_modules folder holding world-countries and cldr-dates-full")
	curated := flag.String("curated", ".", "folder holding curated_*.txt")
	out := flag.String("out", "../../../../../content/data/entities/entities.json", "dataset file to write")
	flag.Parse()
	if err := run(*npm, *curated, *out); err != nil {
		log.Fatal(err)
	}
}

func run(npm, curatedDir, out string) error {
	cities, err := loadCityNames(filepath.Join(npm, "cldr-dates-full", "main"), []string{"fr", "de", "es", "ja"})
	if err != nil {
		return err
	}
	countries, err := loadCountries(filepath.Join(npm, "world-countries", "countries.json"))
	if err != nil {
		return err
	}
	var recs []entities.Record
	for _, c := range countries {
		recs = append(recs, c.record(cities))
		recs = append(recs, c.capitals(cities)...)
	}
	files, err := filepath.Glob(filepath.Join(curatedDir, "curated_*.txt"))
	if err != nil {
		return fmt.Errorf("listing curated files: %w", err)
	}
	for _, f := range files {
		rs, err := parseCuratedFile(f)
		if err != nil {
			return err
		}
		recs = append(recs, rs...)
	}
	sort.SliceStable(recs, func(i, j int) bool { return recs[i].ID < recs[j].ID })
	d := entities.Dataset{
		Sources: []string{
			"world-countries 5.1.0 (npm, ODbL 1.0): countries, territories, capitals",
			"cldr-dates-full 48.2.0 (npm, Unicode License v3): translated city names",
			"hand-written by the Loupe authors: people, organizations, works, events, products, landmarks",
		},
		ArticleLicense: entities.DefaultArticleLicense,
		Entities:       recs,
	}
	if err := d.Validate(); err != nil {
		return fmt.Errorf("validating generated dataset: %w", err)
	}
	b, err := encode(&d)
	if err != nil {
		return err
	}
	if err := os.WriteFile(out, b, 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", out, err)
	}
	log.Printf("wrote %d entities (%d bytes) to %s", len(recs), len(b), out)
	return nil
}

// encode writes the dataset with one entity a line, so diffs stay readable.
func encode(d *entities.Dataset) ([]byte, error) {
	var buf bytes.Buffer
	head := *d
	head.Entities = nil
	hb, err := json.Marshal(head)
	if err != nil {
		return nil, fmt.Errorf("encoding dataset header: %w", err)
	}
	// hb ends with `"entities":null}`; reopen it as an array.
	hb = bytes.TrimSuffix(hb, []byte("null}"))
	buf.Write(hb)
	buf.WriteString("[\n")
	for i, r := range d.Entities {
		rb, err := json.Marshal(r)
		if err != nil {
			return nil, fmt.Errorf("encoding %s: %w", r.ID, err)
		}
		buf.Write(rb)
		if i < len(d.Entities)-1 {
			buf.WriteByte(',')
		}
		buf.WriteByte('\n')
	}
	buf.WriteString("]}\n")
	return buf.Bytes(), nil
}
