package catalog

// API returns the API with the given slug, or nil.
func (c *Catalog) API(slug string) *API {
	for i := range c.APIs {
		if c.APIs[i].Slug == slug {
			return &c.APIs[i]
		}
	}
	return nil
}

// Operation returns the API's operation with the given operationId, or nil.
func (a *API) Operation(id string) *Operation {
	for i := range a.Operations {
		if a.Operations[i].ID == id {
			return &a.Operations[i]
		}
	}
	return nil
}

// Count returns the number of operations over all APIs.
func (c *Catalog) Count() int {
	n := 0
	for _, a := range c.APIs {
		n += len(a.Operations)
	}
	return n
}

// Index returns the operation as a catalog lists it partially (Partial set): only the fields the
// sidebar and the API's page read (ID, API, method, path, summary, tags, deprecation, source and
// viewer). The whole of it is fetched when it is opened.
func (op *Operation) Index() Operation {
	return Operation{ID: op.ID, API: op.API, Method: op.Method, Path: op.Path, Summary: op.Summary,
		Tags: op.Tags, Deprecated: op.Deprecated, Source: op.Source, Viewer: op.Viewer, Partial: true}
}
