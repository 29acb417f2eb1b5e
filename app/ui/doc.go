// Package ui holds what any page of Loupe's UI uses: the site's base path and static mode,
// the repair of a malformed address, text formats, the clipboard, focus and ARIA helpers, the
// code editor's keys, notices, the sandboxed HTML preview, the theme toggle, the actions the
// shell posts, and the registries through which features add pages and sections to the shell
// (pages.go). It may import the pure packages (app/catalog, app/fetch, app/textedit ...) and
// go-app, never app/op, app/chatstream, a feature or the shell.
package ui
