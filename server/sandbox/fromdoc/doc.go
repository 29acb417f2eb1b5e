// Package fromdoc is the sandbox of an API of your own, built from its OpenAPI 3.0 or 3.1
// document alone (apis.<slug>.openapi with no base_url): it answers every operation at
// /sandbox/<slug>/… as the built-in sandboxes do, through the same proxy, per-user state, Reset
// and data directory, and in the static explorer's in-browser module of the APIs of your own (wasm/own).
//
//   - Requests are validated against the document with libopenapi-validator (path, query,
//     header and cookie parameters; JSON, form and XML bodies; multipart here) and the
//     security its operation requires (security.go); a bad one answers 400, 401, 415 or 422
//     with an application/problem+json body naming each wrong field and what was expected.
//   - Answers come from the document: the named example (Prefer: example=<name>), the status
//     asked for (Prefer: code=<n>), the media type Accept negotiates, else a value made from the
//     schema (generate*.go: formats, patterns by lucasjones/reggen, enums, bounds, allOf,
//     oneOf and anyOf, readOnly and writeOnly, realistic names, emails and dates), the same for
//     the same request, checked against the schema as the validator checks a response. A
//     schema no value satisfies answers 500 naming it, never an invalid body.
//   - Collections are inferred from paths and methods (infer*.go: POST /pets creates, GET
//     /pets/{id} reads, PUT and PATCH change, DELETE removes, GET /pets lists with the
//     document's pagination and filters) and kept per user (store.go, over
//     server/sandbox/state), seeded from the examples; x-loupe-sandbox in the document, or the
//     configuration's hints, override the inference (hints.go), and GET _sandbox/inference
//     says what was decided (model.go).
//
// The document is read through server/catalog.OpenOwn, the catalog's own entry point.
package fromdoc
