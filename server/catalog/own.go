package catalog

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"loupe/app/catalog"
)

// Own is an API of your own, added by configuration: a slug and the path of its OpenAPI 3.0
// or 3.1 document, YAML or JSON.
type Own struct {
	// Slug names the API in URLs and the configuration.
	Slug string
	// Path is the document's file.
	Path string
	// Key names the setting that gave Path (apis.<slug>.openapi), so an error says what to fix.
	Key string
}

// Limits bound what loading a document of your own may take.
type Limits struct {
	// MaxBytes is the largest document read, in bytes; a larger one is refused before it is
	// read. Zero means DefaultMaxDocument.
	MaxBytes int64
	// BuildTimeout is how long compiling one document may take before the start is given
	// up. Zero means DefaultBuildTimeout.
	BuildTimeout time.Duration
	// MaxBytesKey and BuildTimeoutKey name the settings, for the errors that say to raise them.
	MaxBytesKey, BuildTimeoutKey string
}

// The defaults of Limits, also the configuration's (server.limits.max_document and
// server.limits.document_build_timeout).
const (
	// DefaultMaxDocument admits every document of the public APIs.guru directory but
	// Microsoft Graph's two (20 and 47 MB), whose load takes gigabytes: 16 MiB.
	DefaultMaxDocument = 16 << 20
	// DefaultBuildTimeout is a minute: Kubernetes' document takes a few seconds.
	DefaultBuildTimeout = time.Minute
)

// LoadOwn reads and compiles the documents of your own APIs and appends them to c, after the
// built-in APIs, in the order given; the catalog's version follows them. A document of your
// own is taken as it is: it must parse and build with libopenapi (OpenAPI 3.0 or 3.1; Swagger
// 2.0 is converted to 3.0 as it loads), and an operation without an operationId gets one made of
// its method and path, but Loupe's conventions (examples, x-loupe-*) are not asked of it, nor
// is it validated against the OpenAPI schema. It returns each document's bytes by slug, for
// export as /openapi/<slug>.yaml. Every error starts with the setting's key and the file.
func LoadOwn(c *catalog.Catalog, own []Own, lim Limits) (map[string][]byte, error) {
	docs, err := LoadOwnDocuments(c, own, lim)
	if err != nil {
		return nil, err
	}
	return OwnBytes(docs), nil
}

// OwnDocument is a document of your own as LoadOwnDocuments read it: its bytes and what
// libopenapi parsed and built of them.
type OwnDocument struct {
	// Data is the document as read, for export as /openapi/<slug>.yaml.
	Data []byte
	// Built is the document parsed and built (converted first when it is Swagger 2.0), which
	// the catalog was compiled from; the sandbox built from the document reads it too
	// (server/sandbox/fromdoc), so a large document is parsed once.
	Built *Built
}

// LoadOwnDocuments is LoadOwn, returning each document by slug with what was parsed and built
// of it.
func LoadOwnDocuments(c *catalog.Catalog, own []Own, lim Limits) (map[string]OwnDocument, error) {
	for _, o := range own {
		if c.API(o.Slug) != nil {
			return nil, fmt.Errorf("%s: %s is a built-in API; add yours under another slug", o.Key, o.Slug)
		}
	}
	compiled, err := CompileOwn(own, lim)
	if err != nil {
		return nil, err
	}
	return AddOwn(c, compiled)
}

// CompiledOwn is a document of your own read and compiled by CompileOwn, not yet in a catalog.
type CompiledOwn struct {
	// Own is the document's configuration.
	Own Own
	// API is its catalog API.
	API catalog.API
	// Document is the document as read and built.
	Document OwnDocument
}

// CompileOwn reads and compiles the documents of your own, in the order given, within the
// limits, as LoadOwn does but without a catalog: a host may compile them while it compiles its
// built-in catalog, then add them to it (AddOwn). Every error starts with the setting's key.
func CompileOwn(own []Own, lim Limits) ([]CompiledOwn, error) {
	lim = lim.withDefaults()
	out := make([]CompiledOwn, 0, len(own))
	for _, o := range own {
		data, err := readLimited(o.Path, lim)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", o.Key, err)
		}
		api, built, err := compileWithin(o.Slug, o.Path, data, lim)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", o.Key, err)
		}
		api.Own = true
		out = append(out, CompiledOwn{Own: o, API: api, Document: OwnDocument{Data: data, Built: built}})
	}
	return out, nil
}

// AddOwn appends the compiled documents of your own to c, after the built-in APIs, in their
// order; the catalog's version follows them. It refuses a slug c already has. It returns each
// document by slug.
func AddOwn(c *catalog.Catalog, compiled []CompiledOwn) (map[string]OwnDocument, error) {
	for _, d := range compiled {
		if c.API(d.Own.Slug) != nil {
			return nil, fmt.Errorf("%s: %s is a built-in API; add yours under another slug", d.Own.Key, d.Own.Slug)
		}
	}
	docs := map[string]OwnDocument{}
	hash := sha256.New()
	hash.Write([]byte(c.Version))
	for _, d := range compiled {
		c.APIs = append(c.APIs, d.API)
		docs[d.Own.Slug] = d.Document
		fmt.Fprintf(hash, "%s %d\n", d.Own.Slug, len(d.Document.Data))
		hash.Write(d.Document.Data)
	}
	if len(compiled) > 0 {
		c.Version = hex.EncodeToString(hash.Sum(nil))[:12]
	}
	return docs, nil
}

// OwnBytes returns the bytes of each document of LoadOwnDocuments, by slug.
func OwnBytes(docs map[string]OwnDocument) map[string][]byte {
	out := make(map[string][]byte, len(docs))
	for slug, d := range docs {
		out[slug] = d.Data
	}
	return out
}

// swagger2 finds a Swagger 2.0 document's version key, which libopenapi reads but cannot build
// into an OpenAPI 3 model.
var swagger2 = regexp.MustCompile(`(?m)^\s*"?swagger"?\s*:\s*["']?2`)

// compileOwn is compileDocument for a document of your own. A Swagger 2.0 document is
// converted to OpenAPI 3.0 first (fromSwagger2), and its API says so in a warning.
func compileOwn(slug, file string, data []byte) (catalog.API, *Built, error) {
	if swagger2.Match(data[:min(len(data), 4096)]) {
		converted, err := fromSwagger2(file, data)
		if err != nil {
			return catalog.API{}, nil, err
		}
		api, built, err := compile(slug, file+" (converted from Swagger 2.0)", converted, true)
		if err == nil {
			api.Warnings = append([]string{file + ": a Swagger 2.0 document, converted to OpenAPI 3.0 as it loaded (kin-openapi's openapi2conv)"}, api.Warnings...)
		}
		return api, built, err
	}
	return compile(slug, file, data, true)
}

// ownID returns the operationId of an operation in a document of your own, which names its
// page (/<slug>/<id>): its own, with each character a URL segment cannot hold as is (/?#% and
// space) made a dash (GitHub's repos/get is repos-get), or when it has none one made from the
// method and path (get-pets-petId); numbered (-2, -3...) when taken.
func (c *compiler) ownID(id, method, path string) string {
	var b strings.Builder
	if id == "" {
		b.WriteString(strings.ToLower(method))
		b.WriteByte('-')
		id = strings.Trim(path, "/{}")
	}
	for _, r := range id {
		switch {
		case strings.ContainsRune("/?#% {}", r):
			if !strings.HasSuffix(b.String(), "-") {
				b.WriteByte('-')
			}
		default:
			b.WriteRune(r)
		}
	}
	id = strings.TrimRight(b.String(), "-")
	base := id
	for n := 2; ; n++ {
		if _, taken := c.ids[id]; !taken {
			return id
		}
		id = base + "-" + strconv.Itoa(n)
	}
}
