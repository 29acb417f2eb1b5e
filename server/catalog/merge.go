package catalog

import (
	"encoding/json"

	"loupe/app/catalog"
)

// merge copies src's fields into dst. With override (a $ref's sibling keywords over the
// referenced schema) src's set fields win; without (allOf members folded into their parent)
// src only fills fields dst leaves empty. Properties are appended by name, flags are or-ed.
// Ref and Recursive are the caller's business: an allOf member that recurses adds nothing.
func merge(dst, src *catalog.Schema, override bool) {
	if src == nil {
		return
	}
	for _, f := range []struct{ d, s *string }{
		{&dst.Type, &src.Type}, {&dst.Format, &src.Format}, {&dst.Title, &src.Title},
		{&dst.DescriptionHTML, &src.DescriptionHTML}, {&dst.Pattern, &src.Pattern},
		{&dst.Source, &src.Source},
	} {
		if *f.s != "" && (override || *f.d == "") {
			*f.d = *f.s
		}
	}
	for _, f := range []struct{ d, s *json.RawMessage }{
		{&dst.Const, &src.Const}, {&dst.Default, &src.Default}, {&dst.Example, &src.Example},
	} {
		if *f.s != nil && (override || *f.d == nil) {
			*f.d = *f.s
		}
	}
	setPtr(&dst.Minimum, src.Minimum, override)
	setPtr(&dst.Maximum, src.Maximum, override)
	setPtr(&dst.ExclusiveMinimum, src.ExclusiveMinimum, override)
	setPtr(&dst.ExclusiveMaximum, src.ExclusiveMaximum, override)
	setPtr(&dst.MinLength, src.MinLength, override)
	setPtr(&dst.MaxLength, src.MaxLength, override)
	setPtr(&dst.MinItems, src.MinItems, override)
	setPtr(&dst.MaxItems, src.MaxItems, override)
	setPtr(&dst.Items, src.Items, override)
	setPtr(&dst.AdditionalProperties, src.AdditionalProperties, override)
	if len(src.Enum) > 0 && (override || len(dst.Enum) == 0) {
		dst.Enum = src.Enum
	}
	if len(src.OneOf) > 0 && (override || len(dst.OneOf) == 0) {
		dst.OneOf = src.OneOf
	}
	if len(src.AnyOf) > 0 && (override || len(dst.AnyOf) == 0) {
		dst.AnyOf = src.AnyOf
	}
	for _, p := range src.Properties {
		i := propertyIndex(dst.Properties, p.Name)
		switch {
		case i < 0:
			dst.Properties = append(dst.Properties, p)
		case override:
			dst.Properties[i] = p
		default:
			dst.Properties[i].Required = dst.Properties[i].Required || p.Required
		}
	}
	dst.Nullable = dst.Nullable || src.Nullable
	dst.ReadOnly = dst.ReadOnly || src.ReadOnly
	dst.WriteOnly = dst.WriteOnly || src.WriteOnly
	dst.Deprecated = dst.Deprecated || src.Deprecated
}

// setPtr sets *d to s when s is set and override is asked or *d is unset.
func setPtr[T any](d **T, s *T, override bool) {
	if s != nil && (override || *d == nil) {
		*d = s
	}
}

// propertyIndex returns the index of the named property, or -1.
func propertyIndex(props []catalog.Property, name string) int {
	for i, p := range props {
		if p.Name == name {
			return i
		}
	}
	return -1
}
