// Package historypage is the history page (/history): the requests this browser sent, searched,
// reopened, cleared or turned off. The history itself is app/history (pure, tested natively)
// and its store app/op's (every sender records to it); this package registers the page and its
// sidebar link with app/ui. It may import the pure packages and the shared ones (app/ui,
// app/op, app/chatstream), never another feature or the shell.
package historypage
