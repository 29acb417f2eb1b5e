package walkthrough

import (
	"loupe/app/catalog"
	"loupe/app/ui"
)

// sideLinks lists the walkthroughs of API a in the sidebar, under its title, where its filter
// finds them ("walkthrough", a word of the title or summary).
func sideLinks(cat *catalog.Catalog, a *catalog.API) []ui.SideLink {
	if cat == nil {
		return nil
	}
	var out []ui.SideLink
	for _, w := range cat.Walkthroughs {
		if w.API == a.Slug {
			out = append(out, ui.SideLink{Path: "/walkthroughs/" + w.ID, Label: w.Title, Badge: "WALK", Search: "walkthrough " + w.ID + " " + w.Summary})
		}
	}
	return out
}
