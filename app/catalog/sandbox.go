package catalog

// SandboxInference is what the sandbox of an API of your own decided about its document, as
// GET /sandbox/<slug>/_sandbox/inference answers it (server/sandbox/fromdoc.Model): the
// collections it keeps per user and the operations it answers from the document alone. The
// API's page shows it, so that a user knows which calls change something.
type SandboxInference struct {
	// Resources are the collections kept, each user their own.
	Resources []SandboxCollection `json:"resources"`
	// Stateless names the operations (by page name) answered from the document's examples or
	// values made from its schemas, which change nothing.
	Stateless []string `json:"stateless"`
	// Hints are the hints followed instead of the inference.
	Hints []SandboxHint `json:"hints"`
	// Notes say what the inference could not decide, and what to set to decide it.
	Notes []string `json:"notes,omitempty"`
}

// SandboxCollection is one collection the sandbox keeps.
type SandboxCollection struct {
	// Name is the collection's name (its path's last literal segment, or the hint's).
	Name string `json:"name"`
	// Collection and Item are its path templates; Param the item path's parameter.
	Collection string `json:"collection"`
	Item       string `json:"item,omitempty"`
	Param      string `json:"param,omitempty"`
	// ID is the item property holding the id ("" when only the path holds it); IDType how new
	// ids are made: integer, uuid or string.
	ID     string `json:"id,omitempty"`
	IDType string `json:"idType"`
	// Operations maps each action (list, create, read, replace, update, delete) to the
	// operation doing it, by page name.
	Operations map[string]string `json:"operations"`
	// Wrapper is the property an action's answer holds the item or list in, by action.
	Wrapper map[string]string `json:"wrapper,omitempty"`
	// Pagination is how the list pages, when it does.
	Pagination *SandboxPaging `json:"pagination,omitempty"`
	// Filters are the list's query parameters that filter by an item property.
	Filters []string `json:"filters,omitempty"`
	// Seed is how many items the collection starts with (and Reset comes back to); SeedFrom
	// where they come from.
	Seed     int    `json:"seed"`
	SeedFrom string `json:"seedFrom,omitempty"`
	// Source says who decided: inferred, document (x-loupe-sandbox) or configuration
	// (apis.<slug>.sandbox_hints).
	Source string `json:"source"`
	// Notes say what was guessed, or left out and why.
	Notes []string `json:"notes,omitempty"`
}

// SandboxPaging is how a collection's list operation pages.
type SandboxPaging struct {
	// Style is offset, page or cursor.
	Style string `json:"style"`
	// Limit, Offset, Page and Cursor are the query parameters of each role, when present.
	Limit  string `json:"limit,omitempty"`
	Offset string `json:"offset,omitempty"`
	Page   string `json:"page,omitempty"`
	Cursor string `json:"cursor,omitempty"`
	// Next is the answer's property carrying the next page; Total the one counting every item.
	Next  string `json:"next,omitempty"`
	Total string `json:"total,omitempty"`
	// Default is the page size when the request gives none.
	Default int `json:"default"`
}

// SandboxHint is one hint followed instead of the inference.
type SandboxHint struct {
	// From is document (x-loupe-sandbox) or configuration (apis.<slug>.sandbox_hints).
	From string `json:"from"`
	// Kind is resource, stateless or operation.
	Kind string `json:"kind"`
	// Target is the collection's path or the operation the hint names.
	Target string `json:"target"`
	// Says is what the hint set, in words.
	Says string `json:"says"`
}

// SandboxInferenceURL is where the sandbox of the API of your own slug says what it inferred:
// the Loupe server's /sandbox/<slug>/_sandbox/inference, which the static explorer's sandbox
// module answers too.
func SandboxInferenceURL(slug string) string { return "/sandbox/" + slug + "/_sandbox/inference" }
