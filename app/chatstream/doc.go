// Package chatstream is a chat completion conversation as the UI shows it: its turns and
// request body, the answer streamed through the proxy and rendered as it arrives (Markdown,
// tool call cards, the raw exchange, metrics). The chat view (app/chat) and the walkthrough
// runner (app/walkthrough) both use it, so that neither imports the other. It may import the
// pure packages, app/ui and app/op, never a feature or the shell.
package chatstream
