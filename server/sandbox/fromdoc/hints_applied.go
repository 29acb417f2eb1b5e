package fromdoc

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Where a hint comes from (AppliedHint.From, Resource.Source).
const (
	// FromDocument is the document's own x-loupe-sandbox extension.
	FromDocument = "document"
	// FromConfiguration is the configuration's apis.<slug>.sandbox_hints.
	FromConfiguration = "configuration"
)

// AppliedHint is one hint the sandbox followed instead of its inference, as the API's page
// lists it.
type AppliedHint struct {
	// From is FromDocument or FromConfiguration.
	From string `json:"from"`
	// Kind is resource (a collection kept), stateless (an operation answered from the document
	// alone) or operation (what an operation does).
	Kind string `json:"kind"`
	// Target is the collection's path (resource) or the operation as the hint names it, by
	// operationId or page name (stateless, operation).
	Target string `json:"target"`
	// Says is what the hint set, in words: "item /pets/{petId}, id petId", "update on /pets",
	// "answered from the document alone".
	Says string `json:"says"`
}

// appliedHints lists the hints of the document and of the configuration that Infer follows,
// the configuration's winning where both name the same collection or operation.
func appliedHints(doc, conf *Hints) []AppliedHint {
	if conf == nil {
		conf = &Hints{}
	}
	out := []AppliedHint{}
	resource := func(from string, r ResourceHint) AppliedHint {
		var says []string
		if r.Name != "" {
			says = append(says, "named "+r.Name)
		}
		if r.Item != "" {
			says = append(says, "item "+r.Item)
		} else {
			says = append(says, "no item path (create and list only)")
		}
		if r.ID != "" {
			says = append(says, "id "+r.ID)
		}
		return AppliedHint{From: from, Kind: "resource", Target: r.Collection, Says: strings.Join(says, ", ")}
	}
	for _, r := range doc.Resources {
		if !slices.ContainsFunc(conf.Resources, func(c ResourceHint) bool { return c.Collection == r.Collection }) {
			out = append(out, resource(FromDocument, r))
		}
	}
	for _, r := range conf.Resources {
		out = append(out, resource(FromConfiguration, r))
	}
	for _, id := range doc.Stateless {
		out = append(out, AppliedHint{From: FromDocument, Kind: "stateless", Target: id, Says: "answered from the document alone"})
	}
	for _, id := range conf.Stateless {
		out = append(out, AppliedHint{From: FromConfiguration, Kind: "stateless", Target: id, Says: "answered from the document alone"})
	}
	operation := func(from, id string, o OperationHint) AppliedHint {
		says := o.Action
		switch {
		case o.Action == "none":
			says = "answered from the document alone"
		case o.Resource != "":
			says = fmt.Sprintf("%s on %s", o.Action, o.Resource)
		}
		return AppliedHint{From: from, Kind: "operation", Target: id, Says: says}
	}
	for _, id := range slices.Sorted(maps.Keys(doc.Operations)) {
		if _, over := conf.Operations[id]; !over {
			out = append(out, operation(FromDocument, id, doc.Operations[id]))
		}
	}
	for _, id := range slices.Sorted(maps.Keys(conf.Operations)) {
		out = append(out, operation(FromConfiguration, id, conf.Operations[id]))
	}
	return out
}

// resourceSource says who decided a hinted collection: the configuration when its hints name
// the collection, else the document.
func resourceSource(conf *Hints, collection string) string {
	if conf != nil && slices.ContainsFunc(conf.Resources, func(c ResourceHint) bool { return c.Collection == collection }) {
		return FromConfiguration
	}
	return FromDocument
}
