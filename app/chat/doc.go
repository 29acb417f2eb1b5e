// Package chat is the chat completions playground, the chat API's own view: settings, the
// conversation, the composer and the link that holds them. It registers the view and the
// chat body viewer with app/op. It may import the pure packages and the shared ones (app/ui,
// app/op, app/chatstream), never another feature or the shell.
package chat
