// Package catalog holds the types of the catalog the UI reads: every API, operation, parameter
// and schema of content/openapi, compiled by server/catalog and served as /catalog.json.
//
// The package has no dependencies beyond the standard library, so it compiles into the wasm,
// where the catalog is only decoded, never parsed from OpenAPI.
package catalog

import "encoding/json"

// Source values say where a part of the catalog comes from (the x-loupe-source extension).
const (
	// SourceContract marks what the seed documents specify. It is the default.
	SourceContract = "contract"
	// SourcePublicAPI marks what the seeds leave out and the real public API fills in.
	SourcePublicAPI = "public-api"
)

// Catalog is the whole compiled catalog.
type Catalog struct {
	// Version is a hash of the compiled content; it changes whenever any document changes.
	Version string `json:"version"`
	// APIs are in the order of the DESIGN.md slug table.
	APIs []API `json:"apis"`
	// Walkthroughs are the onboarding walkthroughs, in file name order.
	Walkthroughs []Walkthrough `json:"walkthroughs,omitempty"`
	// Page is set on a catalog cut down for the first render of one page (the page's path): the
	// operations that page does not show are listed partially and the guides of the APIs it
	// does not show are left out. The app completes it from /catalog.json once the page runs.
	Page string `json:"page,omitempty"`
}

// API is one OpenAPI document.
type API struct {
	Slug            string           `json:"slug"`
	Title           string           `json:"title"`
	Version         string           `json:"version"`
	Summary         string           `json:"summary,omitempty"`
	DescriptionHTML string           `json:"descriptionHTML,omitempty"`
	GuideHTML       string           `json:"guideHTML,omitempty"`
	Servers         []string         `json:"servers,omitempty"`
	Tags            []Tag            `json:"tags,omitempty"`
	Security        []SecurityScheme `json:"security,omitempty"`
	Operations      []Operation      `json:"operations"`
	// Own marks an API added by configuration (apis.<slug>.openapi).
	Own bool `json:"own,omitempty"`
	// OwnSandbox marks an API of your own that the Loupe server answers from the sandbox built
	// from its document (it has no base_url, and apis.<slug>.sandbox is not false). The static
	// explorer's sandbox module answers every API of your own, whatever this says.
	OwnSandbox bool `json:"ownSandbox,omitempty"`
	// SecurityPerOperation marks an API of your own whose credentials the proxy sends per
	// operation, as its document's security says (it sets no credential.send): an operation
	// gets the credentials of its first security requirement whose every scheme is in
	// HeldSchemes, or none (security: [], or no requirement met: the proxy refuses the call).
	// Unset for any other API, to every call of which the proxy adds its one credential.
	SecurityPerOperation bool `json:"securityPerOperation,omitempty"`
	// HeldSchemes names the security schemes whose credential the server holds (configured,
	// or the sandbox's own key for the document's first scheme), for SecurityPerOperation.
	HeldSchemes []string `json:"heldSchemes,omitempty"`
	// Warnings are the problems of a document of your own that Loupe loaded past (a $ref to
	// nothing, compiled as any value; a circular reference), each as "file:line:column: what
	// (at #/json/pointer)": the API's page shows them.
	Warnings []string `json:"warnings,omitempty"`
}

// Tag groups operations in the sidebar.
type Tag struct {
	Name            string `json:"name"`
	DescriptionHTML string `json:"descriptionHTML,omitempty"`
}

// SecurityScheme is a components.securitySchemes entry.
type SecurityScheme struct {
	Name            string      `json:"name"`
	Type            string      `json:"type"`             // apiKey, http, oauth2, openIdConnect
	Scheme          string      `json:"scheme,omitempty"` // bearer, basic (type http)
	In              string      `json:"in,omitempty"`     // query, header, cookie (type apiKey)
	ParamName       string      `json:"paramName,omitempty"`
	Prefix          string      `json:"prefix,omitempty"` // x-loupe-credential-prefix: before the key in its header ("ApiKey ")
	DescriptionHTML string      `json:"descriptionHTML,omitempty"`
	Flows           []OAuthFlow `json:"flows,omitempty"`
}

// OAuthFlow is one OAuth 2.0 flow of a scheme.
type OAuthFlow struct {
	Type             string  `json:"type"` // authorizationCode, clientCredentials, implicit, password
	AuthorizationURL string  `json:"authorizationUrl,omitempty"`
	TokenURL         string  `json:"tokenUrl,omitempty"`
	Scopes           []Scope `json:"scopes,omitempty"`
}

// Scope is an OAuth 2.0 scope and what it allows.
type Scope struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

// SecurityRequirement is one alternative of an operation's security: all its schemes together.
type SecurityRequirement struct {
	Schemes []SchemeScopes `json:"schemes"`
}

// SchemeScopes names a scheme and the scopes an operation needs from it.
type SchemeScopes struct {
	Scheme string   `json:"scheme"`
	Scopes []string `json:"scopes,omitempty"`
}

// Viewer values name the response viewer an operation's answer is shown in (x-loupe-viewer).
const (
	ViewerJSON   = "json"
	ViewerJSONLD = "jsonld"
	ViewerChat   = "chat"
	ViewerHTML   = "html"
	ViewerPaged  = "paged"
	// ViewerAudit shows an audit activity list as console sentences on a timeline; the
	// operation's x-loupe-events gives the sentence templates.
	ViewerAudit = "audit"
)

// Operation is one method on one path.
type Operation struct {
	ID              string                `json:"id"` // operationId
	API             string                `json:"api"`
	Method          string                `json:"method"` // upper case
	Path            string                `json:"path"`   // as in the document, e.g. /api/v2/project/{id}/
	Summary         string                `json:"summary"`
	DescriptionHTML string                `json:"descriptionHTML,omitempty"`
	Tags            []string              `json:"tags,omitempty"`
	Deprecated      bool                  `json:"deprecated,omitempty"`
	Source          string                `json:"source"`
	Parameters      []Parameter           `json:"parameters"`
	Body            *RequestBody          `json:"body,omitempty"`
	Responses       []Response            `json:"responses"`
	Security        []SecurityRequirement `json:"security,omitempty"`
	// Streaming is true when a response is text/event-stream.
	Streaming bool `json:"streaming,omitempty"`
	// Viewer is the response viewer (a Viewer constant); json when the document says nothing.
	Viewer string `json:"viewer"`
	// Pagination describes a paged list response (x-loupe-pagination); nil for other operations.
	Pagination *Pagination `json:"pagination,omitempty"`
	// Extensions holds every other x-loupe-* extension of the operation, as JSON.
	Extensions map[string]json.RawMessage `json:"extensions,omitempty"`
	// Partial marks an operation of a very large API listed by its index fields only (ID,
	// method, path, summary, tags); the whole of it is at /catalog/<api>/<id>.json.
	Partial bool `json:"partial,omitempty"`
}

// Pagination says how to walk a paged list.
type Pagination struct {
	Style string `json:"style"` // page-number, limit-offset, cursor, page-token
	// Results, Next, Previous and Count are the body fields holding the page's items, the next
	// and previous page links or tokens, and the total.
	Results  string `json:"results"`
	Next     string `json:"next,omitempty"`
	Previous string `json:"previous,omitempty"`
	Count    string `json:"count,omitempty"`
	// TokenParam is the query parameter a page token or cursor goes in (page-token style).
	TokenParam string `json:"tokenParam,omitempty"`
	// Links says where the next and previous links are: "" (or "body") for the body fields
	// Next and Previous; "header" for a Link header (RFC 8288), whose rel values Next and
	// Previous then name. With "header", an empty Results means the body is the list.
	Links string `json:"links,omitempty"`
}

// Parameter is a path, query or header parameter.
type Parameter struct {
	Name            string  `json:"name"`
	In              string  `json:"in"` // path, query, header
	DescriptionHTML string  `json:"descriptionHTML,omitempty"`
	Required        bool    `json:"required,omitempty"`
	Deprecated      bool    `json:"deprecated,omitempty"`
	Source          string  `json:"source"`
	Schema          *Schema `json:"schema"`
	// Repeatable is true for an array parameter sent as repeated name=value pairs (explode).
	Repeatable bool            `json:"repeatable,omitempty"`
	Example    json.RawMessage `json:"example,omitempty"`
	// Prefill fills an optional parameter from its example in the form as it opens
	// (x-loupe-prefill), for an operation that needs one of several optional parameters.
	Prefill bool `json:"prefill,omitempty"`
	// Style, Explode and AllowReserved are the document's serialization of the value (see
	// Serialization for the defaults they leave): Style is matrix, label, form, simple,
	// spaceDelimited, pipeDelimited or deepObject, empty for the location's default.
	Style         string `json:"style,omitempty"`
	Explode       *bool  `json:"explode,omitempty"`
	AllowReserved bool   `json:"allowReserved,omitempty"`
	// ContentType is the media type of a parameter the document gives by content rather than
	// by schema (content: {application/json: ...}): its value is that media type's text
	// (JSON), sent as it is, escaped for its location. Empty for a schema parameter.
	ContentType string `json:"contentType,omitempty"`
}

// RequestBody is an operation's request body.
type RequestBody struct {
	Required        bool            `json:"required,omitempty"`
	ContentType     string          `json:"contentType"`
	DescriptionHTML string          `json:"descriptionHTML,omitempty"`
	Schema          *Schema         `json:"schema,omitempty"`
	Example         json.RawMessage `json:"example,omitempty"`
	// Encoding says how each property of a form body is sent, by property name: the media
	// type's encoding object, for application/x-www-form-urlencoded and multipart/form-data.
	// A property it does not name is sent with the defaults (see Encoding).
	Encoding map[string]Encoding `json:"encoding,omitempty"`
	// Media lists every media type the document offers for the body, in its order, with
	// its own schema, encoding and example, when it offers more than one (empty when one).
	// ContentType, Schema, Encoding and Example are the default's: application/json when
	// offered (the editor with a tree and schema checks), else the first. See As.
	Media []BodyMedia `json:"media,omitempty"`
}

// Encoding is how one property of a form body is sent (OpenAPI's Encoding Object).
type Encoding struct {
	// ContentType is a multipart part's Content-Type ("image/png, image/jpeg": the first is
	// sent). Empty means the default of the property's schema: none for a scalar,
	// application/json for an object, the file's own (or application/octet-stream) for a file.
	ContentType string `json:"contentType,omitempty"`
	// Headers are a multipart part's headers besides Content-Type, as parameters (in: header).
	Headers []Parameter `json:"headers,omitempty"`
	// Style, Explode and AllowReserved serialize the property in a urlencoded body as a query
	// parameter's are (style form by default, exploded).
	Style         string `json:"style,omitempty"`
	Explode       *bool  `json:"explode,omitempty"`
	AllowReserved bool   `json:"allowReserved,omitempty"`
}

// Response is one documented response.
type Response struct {
	Status          string          `json:"status"` // "200", "4XX", "default"
	DescriptionHTML string          `json:"descriptionHTML,omitempty"`
	ContentType     string          `json:"contentType,omitempty"`
	Source          string          `json:"source"`
	Schema          *Schema         `json:"schema,omitempty"`
	Example         json.RawMessage `json:"example,omitempty"`
}

// Schema is a JSON Schema (OpenAPI 3.1) with references resolved.
type Schema struct {
	// Ref is the component name the schema came from, for display ("Project").
	Ref string `json:"ref,omitempty"`
	// Recursive is true when this schema repeats one of its ancestors; its fields are left empty.
	Recursive bool `json:"recursive,omitempty"`
	// Type is the JSON type; empty means any. Nullable is set when "null" is among 3.1 types.
	Type            string `json:"type,omitempty"`
	Nullable        bool   `json:"nullable,omitempty"`
	Format          string `json:"format,omitempty"`
	Title           string `json:"title,omitempty"`
	DescriptionHTML string `json:"descriptionHTML,omitempty"`
	// Enum lists the allowed values, each with its meaning (x-enumDescriptions).
	Enum    []EnumValue     `json:"enum,omitempty"`
	Const   json.RawMessage `json:"const,omitempty"`
	Default json.RawMessage `json:"default,omitempty"`
	Example json.RawMessage `json:"example,omitempty"`

	Minimum          *float64 `json:"minimum,omitempty"`
	Maximum          *float64 `json:"maximum,omitempty"`
	ExclusiveMinimum *float64 `json:"exclusiveMinimum,omitempty"`
	ExclusiveMaximum *float64 `json:"exclusiveMaximum,omitempty"`
	MinLength        *int64   `json:"minLength,omitempty"`
	MaxLength        *int64   `json:"maxLength,omitempty"`
	Pattern          string   `json:"pattern,omitempty"`
	MinItems         *int64   `json:"minItems,omitempty"`
	MaxItems         *int64   `json:"maxItems,omitempty"`

	Items                *Schema    `json:"items,omitempty"`
	Properties           []Property `json:"properties,omitempty"`
	AdditionalProperties *Schema    `json:"additionalProperties,omitempty"`
	OneOf                []*Schema  `json:"oneOf,omitempty"`
	AnyOf                []*Schema  `json:"anyOf,omitempty"`
	ReadOnly             bool       `json:"readOnly,omitempty"`
	WriteOnly            bool       `json:"writeOnly,omitempty"`
	Deprecated           bool       `json:"deprecated,omitempty"`
	Source               string     `json:"source,omitempty"`
	// ContentMediaType and ContentEncoding are JSON Schema's (OpenAPI 3.1): a string schema
	// with a media type and no encoding is a file's bytes, as format binary says in 3.0.
	ContentMediaType string `json:"contentMediaType,omitempty"`
	ContentEncoding  string `json:"contentEncoding,omitempty"`
	// XML names the element or attribute the schema is written as in an XML body.
	XML *XML `json:"xml,omitempty"`
	// Shared names the schema in API.Components (or Operation.Components) whose use this is:
	// on the wire a shared schema is written once and each use as {"shared": name}; decoding
	// resolves each use to the one schema (see components.go). In memory it marks the
	// component itself, and is set only on it.
	Shared string `json:"shared,omitempty"`
}

// XML is OpenAPI's XML Object: how a schema is written in an XML body.
type XML struct {
	Name      string `json:"name,omitempty"`
	Namespace string `json:"namespace,omitempty"`
	Prefix    string `json:"prefix,omitempty"`
	Attribute bool   `json:"attribute,omitempty"`
	Wrapped   bool   `json:"wrapped,omitempty"`
}

// Property is a named property of an object schema, in document order.
type Property struct {
	Name     string  `json:"name"`
	Required bool    `json:"required,omitempty"`
	Schema   *Schema `json:"schema"`
}

// EnumValue is an allowed value and its meaning.
type EnumValue struct {
	Value           json.RawMessage `json:"value"`
	DescriptionHTML string          `json:"descriptionHTML,omitempty"`
}
