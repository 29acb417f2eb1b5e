// Package script is the script API's workspace (/script/workspace): open a project, edit,
// save, version, deploy and run it, each action a documented operation sent through the proxy.
// It registers the page and the API page's link to it with app/ui. It may import the pure
// packages and the shared ones (app/ui, app/op, app/chatstream), never another feature or the
// shell.
package script
