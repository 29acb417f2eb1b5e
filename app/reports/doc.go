// Package reports is the audit console, the reports API's own viewer of activity events,
// registered with app/op as the body viewer of its operations. It may import the pure
// packages and the shared ones (app/ui, app/op, app/chatstream), never another feature or the
// shell.
package reports
