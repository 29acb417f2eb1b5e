// Package op is the operation page: the form generated from an operation (form state, fields,
// body editor), building and sending its request (the request runner every sender shares),
// the request preview with its snippets, the response panel with its JSON tree, and the
// response viewers: the registry features add theirs to (AddBodyViewer, AddOperationView,
// AddSidePanel, AddFormNote, AddErrorHint) and the generic ones (JSON-LD, embed, paged lists,
// fetch all pages). It also keeps the history store every sender records to and the
// credentials the proxy adds. It may import the pure packages and app/ui, never
// app/chatstream, a feature or the shell.
package op
