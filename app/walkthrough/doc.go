// Package walkthrough runs onboarding walkthroughs, documents of standard Arazzo, in the
// browser: those of the catalog (/walkthroughs/<id>) and a file opened in the browser or
// recorded from the history (/walkthroughs). The service (server/walkthrough, or the static
// explorer's sandbox module) resolves each request and judges each answer through the run
// protocol (catalog.WalkRunRequest); the page shows each request as its operation's form,
// sends what the form shows, and shows each criterion with why it held or failed and the
// retries and gotos the run took. It registers the pages and the walkthrough lists of the
// overview and the API pages with app/ui, and runs its requests with app/op and app/chatstream.
// It may import the pure packages and the shared ones (app/ui, app/op, app/chatstream), never
// another feature or the shell.
package walkthrough
