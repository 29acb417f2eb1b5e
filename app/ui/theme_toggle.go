package ui

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// themeKey is the localStorage key of the chosen theme.
const themeKey = "loupe.theme"

// themeToggle picks the color theme: the system's (prefers-color-scheme), light or dark. The
// choice is kept in localStorage and set as data-theme on <html>, which the stylesheet follows.
type themeToggle struct {
	app.Compo

	theme string // "", "light" or "dark"
}

// NewThemeToggle returns the theme picker: the system's theme, light or dark.
func NewThemeToggle() *themeToggle { return &themeToggle{} }

// OnMount applies the stored choice.
func (t *themeToggle) OnMount(ctx app.Context) {
	if v := app.Window().Get("localStorage").Call("getItem", themeKey); v.Truthy() {
		t.theme = v.String()
	}
	applyTheme(t.theme)
}

// onChange stores and applies the choice.
func (t *themeToggle) onChange(ctx app.Context, e app.Event) {
	t.theme = ctx.JSSrc().Get("value").String()
	store := app.Window().Get("localStorage")
	if t.theme == "" {
		store.Call("removeItem", themeKey)
	} else {
		store.Call("setItem", themeKey, t.theme)
	}
	applyTheme(t.theme)
}

// applyTheme sets data-theme on <html>, or removes it to follow the system.
func applyTheme(theme string) {
	root := app.Window().Get("document").Get("documentElement")
	if theme == "light" || theme == "dark" {
		root.Call("setAttribute", "data-theme", theme)
		return
	}
	root.Call("removeAttribute", "data-theme")
}

// Render implements app.Composer.
func (t *themeToggle) Render() app.UI {
	opt := func(value, label string) app.UI {
		return app.Option().Value(value).Selected(t.theme == value).Text(label)
	}
	return app.Div().Class("theme-field").Body(
		app.Label().For("theme").Text("Theme"),
		app.Select().ID("theme").OnChange(t.onChange).Body(
			opt("", "System"), opt("light", "Light"), opt("dark", "Dark"),
		),
	)
}
