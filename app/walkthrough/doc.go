// Package walkthrough runs onboarding walkthroughs (/walkthroughs/<id>) step by step: each step
// an operation's form and request, prefilled from earlier steps and judged by the server. It
// registers the page and the walkthrough lists of the overview and the API pages with app/ui,
// and runs its steps with app/op and app/chatstream. It may import the pure packages and the
// shared ones (app/ui, app/op, app/chatstream), never another feature or the shell.
package walkthrough
