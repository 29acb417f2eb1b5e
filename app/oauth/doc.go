// Package oauth is signing in to an API with OAuth 2.0: the panel on the API's page, the
// scopes an operation needs above its form, and the hint of a response refused for a missing
// scope, registered with app/ui and app/op. It may import the pure packages and the shared
// ones (app/ui, app/op, app/chatstream), never another feature or the shell.
package oauth
