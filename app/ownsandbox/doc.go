// Package ownsandbox is the API page's account of the sandbox of an API of your own, the one
// built from its document alone (server/sandbox/fromdoc): which collections it keeps for each
// user (their paths, id, the operations that create, read, change, delete and list them, how
// the list pages, how many items they start with), which operations it answers from the
// document's examples or schemas alone, and the x-loupe-sandbox or configuration hints it
// followed, so that a user knows which calls change something. It reads GET
// /sandbox/<slug>/_sandbox/inference, which the Loupe server and the static explorer's sandbox
// module both answer, and registers its section with app/ui. It may import the pure packages
// and the shared ones (app/ui, app/op, app/chatstream), never another feature or the shell.
package ownsandbox
