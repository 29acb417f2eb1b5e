package entities

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
)

// DefaultArticleLicense is the license of Wikipedia article text, as the
// Knowledge Graph Search API reports it in detailedDescription.license.
const DefaultArticleLicense = "https://en.wikipedia.org/wiki/Wikipedia:Text_of_Creative_Commons_Attribution-ShareAlike_3.0_Unported_License"

// Dataset is the on-disk form of the sandbox's entities: one JSON file (or
// several, merged) under data/entities/ in the content tree.
type Dataset struct {
	// Sources names where the records come from, for humans reading the file.
	Sources []string `json:"sources,omitempty"`
	// ArticleLicense is the license of every article body that does not name
	// its own; empty means DefaultArticleLicense.
	ArticleLicense string `json:"articleLicense,omitempty"`
	// Entities are the records, in no particular order.
	Entities []Record `json:"entities"`
}

// Record is one entity of the dataset. Localized fields are maps keyed by
// ISO 639-1 language code; "en" is expected on every record.
type Record struct {
	// ID is the entity path without the "kg:" prefix, for example "/m/0dl567".
	ID string `json:"id"`
	// Types are schema.org type names, most specific first, without "Thing"
	// (the handler adds it).
	Types []string `json:"types"`
	// Name is the display name in each language.
	Name map[string]string `json:"name"`
	// Alias holds alternate names in each language.
	Alias map[string][]string `json:"alias,omitempty"`
	// Description is the short description in each language.
	Description map[string]string `json:"description,omitempty"`
	// Article is the detailed description in each language.
	Article map[string]Article `json:"article,omitempty"`
	// Image identifies the entity visually; optional.
	Image *Image `json:"image,omitempty"`
	// URL is the official website; optional.
	URL string `json:"url,omitempty"`
	// Popularity is a ranking weight (roughly 100 to 6000); it scales resultScore.
	Popularity float64 `json:"popularity"`
}

// Article is a detailed description: a short text, the page it summarizes
// and the text's license.
type Article struct {
	// Body is the article text.
	Body string `json:"body"`
	// URL is the Wikipedia page the text summarizes.
	URL string `json:"url"`
	// License is the text's license URL; empty means the dataset's ArticleLicense.
	License string `json:"license,omitempty"`
}

// Image is a picture of the entity, as the API returns it.
type Image struct {
	// ContentURL is the URL of the image file itself.
	ContentURL string `json:"contentUrl"`
	// URL is the page that describes the image.
	URL string `json:"url"`
	// License is a URL stating the image's license.
	License string `json:"license"`
}

// LoadDataset reads every *.json file in dir of fsys (sorted by name) and
// merges them into one Dataset. It rejects records without an ID or an
// English name, and duplicate IDs.
func LoadDataset(fsys fs.FS, dir string) (*Dataset, error) {
	names, err := fs.Glob(fsys, path.Join(dir, "*.json"))
	if err != nil {
		return nil, fmt.Errorf("listing %s: %w", dir, err)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("loading %s: no *.json files", dir)
	}
	sort.Strings(names)
	out := &Dataset{}
	for _, name := range names {
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", name, err)
		}
		d, err := ParseDataset(b)
		if err != nil {
			return nil, fmt.Errorf("loading %s: %w", name, err)
		}
		out.Sources = append(out.Sources, d.Sources...)
		if out.ArticleLicense == "" {
			out.ArticleLicense = d.ArticleLicense
		}
		out.Entities = append(out.Entities, d.Entities...)
	}
	if err := out.Validate(); err != nil {
		return nil, fmt.Errorf("loading %s: %w", dir, err)
	}
	return out, nil
}

// ParseDataset decodes one dataset file.
func ParseDataset(b []byte) (*Dataset, error) {
	var d Dataset
	if err := json.Unmarshal(b, &d); err != nil {
		return nil, fmt.Errorf("decoding dataset: %w", err)
	}
	return &d, nil
}

// Validate checks the invariants the search index relies on.
func (d *Dataset) Validate() error {
	seen := make(map[string]bool, len(d.Entities))
	for i, r := range d.Entities {
		if !strings.HasPrefix(r.ID, "/") {
			return fmt.Errorf("entity %d: id %q must start with /", i, r.ID)
		}
		if seen[r.ID] {
			return fmt.Errorf("entity %d: duplicate id %q", i, r.ID)
		}
		seen[r.ID] = true
		if r.Name["en"] == "" {
			return fmt.Errorf("entity %s: no English name", r.ID)
		}
		if len(r.Types) == 0 {
			return fmt.Errorf("entity %s: no types", r.ID)
		}
	}
	return nil
}
