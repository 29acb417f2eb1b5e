package op

import (
	"errors"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/permalink"
	"loupe/app/request"
	"loupe/app/snippet"
	"loupe/app/ui"
)

// MaxBody bounds the response body the panel keeps.
const MaxBody = 32 << 20

// formState and requestRunner are embedded in operationPage under these unexported names: go-app
// copies a component's exported fields when its parent renders it again, which would reset the
// form and the runner.
type (
	formState     = FormState
	requestRunner = RequestRunner
)

// operationPage is one operation: its docs, the form generated from the catalog, the request
// preview and the response. The form state lives in the URL fragment (app/permalink).
type operationPage struct {
	app.Compo

	// API and Op are the operation to present.
	API *catalog.API
	Op  *catalog.Operation

	formState // the filled form
	requestRunner

	target     string // slug/operationId the state below belongs to
	notice     string // why the link's fragment was not used
	fragment   string // the fragment last read or written, with "#"
	writeSeq   int
	link       string // the shared link, once Copy link was used
	linkCopied bool
	linkNote   string // what the link leaves out (a body too large for an address)

	result   *Exchange
	progress string // how far "Fetch all pages" has come, while it runs

	oauth catalog.OAuthStatus // the last sign-in status oauthNeeds fetched (its API is "" before any)
	ctx   app.Context         // the page's own context, from OnMount: it outlives the form's elements
}

// NewOperationPage returns the page of op, an operation of a.
func NewOperationPage(a *catalog.API, op *catalog.Operation) *operationPage {
	return &operationPage{API: a, Op: op}
}

// OnInit prepares the untouched form, so the prerendered page shows it complete.
func (p *operationPage) OnInit() { p.sync(nil) }

// OnMount listens for the Ctrl+Enter shortcut.
func (p *operationPage) OnMount(ctx app.Context) {
	p.ctx = ctx
	ctx.Handle(ui.SendAction, func(ctx app.Context, a app.Action) { p.send(ctx) })
	ctx.Handle(ui.CancelAction, func(ctx app.Context, a app.Action) { p.Stop() })
	ctx.Handle(fetchAllAction, func(ctx app.Context, a app.Action) { p.fetchAll(ctx) })
	ctx.Handle(sendAnywayAction, func(ctx app.Context, a app.Action) { p.sendAnyway(ctx) })
	ctx.ObserveState(OAuthStatusState, &p.oauth)
	ctx.Handle(PageAction, func(ctx app.Context, a app.Action) {
		if m, ok := a.Value.(PageMove); ok {
			p.applyPage(m)
			p.changed(ctx)
			p.send(ctx)
		}
	})
	p.sync(&ctx)
}

// OnNav restores the form from the fragment when the user navigates or edits the URL.
func (p *operationPage) OnNav(ctx app.Context) { p.sync(&ctx) }

// OnUpdate resets the page when the parent shows another operation in it.
func (p *operationPage) OnUpdate(ctx app.Context) { p.sync(&ctx) }

// OnDismount abandons a request in flight.
func (p *operationPage) OnDismount() { p.Stop() }

func (p *operationPage) key() string { return p.API.Slug + "/" + p.Op.ID }

// base is where requests for the API go.
func (p *operationPage) base() string { return "/proxy/" + p.API.Slug }

// sync makes the state match the operation and the URL fragment; ctx is nil on init.
func (p *operationPage) sync(ctx *app.Context) {
	if ctx != nil {
		SyncFields(*ctx) // after the render, the inputs show the state decided below
	}
	if p.target != p.key() {
		p.Stop()
		// Keep the sequence numbers counting, so that an answer or a timer of the previous
		// operation can never pass for one of this operation.
		runner := RequestRunner{Seq: p.Seq}
		runner.Forget()
		*p = operationPage{Compo: p.Compo, API: p.API, Op: p.Op, target: p.key(), requestRunner: runner, writeSeq: p.writeSeq + 1}
		p.formState = newFormState(p.Op, p.base())
	}
	frag := CurrentFragment()
	if frag == p.fragment {
		return
	}
	p.fragment = frag
	p.notice = ""
	st, ok, err := permalink.Decode(p.Op, frag)
	// An operation with a view of its own (chat) reads its own link and says what of it it
	// could not read: the form's decoder would call the view's names (its conversation)
	// unknown to the form.
	_, ownView := operationViews[p.Op.Viewer]
	var notes []string
	switch {
	case ok:
		p.State = st
		if ui.WasRepaired(frag) {
			notes = append(notes, "This link's address was not valid URL encoding: a stray % was read as a literal %.")
		}
		if err != nil && !ownView {
			notes = append(notes, noticeFor(err))
		}
		if names := permalink.Credentials(frag); len(names) > 0 {
			notes = append(notes, "This link carried "+strings.Join(names, ", ")+
				", which looks like a credential: Loupe ignored it. The server holds the credentials and adds them to every request.")
		}
	case err != nil && !ownView:
		notes = append(notes, "The form state in this link could not be read ("+reason(err)+"), so the form shows the defaults.")
		p.State = request.Initial(p.Op)
	default:
		p.State = request.Initial(p.Op)
	}
	p.notice = strings.Join(notes, " ")
	p.showMissing = false
	p.Validate()
}

// noticeFor says what of a link's form state was left out, and why; the rest was restored.
func noticeFor(err error) string {
	what := "Part of the form state in this link could not be read"
	switch {
	case errors.Is(err, permalink.ErrNoBody):
		what = "This link was made without its request body"
	case errors.Is(err, permalink.ErrOutdated) && !errors.Is(err, permalink.ErrMalformed):
		what = "Part of the form state in this link does not fit this operation any more"
	}
	return what + ": " + reason(err) + ". The form shows everything else it held."
}

// reason is a permalink error's text without its kinds ("malformed link: ", "outdated link: ").
func reason(err error) string {
	r := strings.NewReplacer(permalink.ErrMalformed.Error()+": ", "", permalink.ErrOutdated.Error()+": ", "", permalink.ErrNoBody.Error()+": ", "")
	return r.Replace(err.Error())
}

// CurrentFragment is the page's URL fragment with its "#", or "" (always "" on the server).
func CurrentFragment() string {
	if !app.IsClient {
		return ""
	}
	return app.Window().Get("location").Get("hash").String()
}

// changed revalidates and, shortly after the last keystroke, writes the state to the URL.
func (p *operationPage) changed(ctx app.Context) {
	p.Validate()
	SyncFields(ctx)
	p.link = ""
	p.writeSeq++
	seq := p.writeSeq
	// On the page's context: an edit that switches the editor (another content type) removes
	// the element whose event this is, and go-app drops what is dispatched on a removed one.
	if p.ctx.Src() != nil {
		ctx = p.ctx
	}
	ctx.After(250*time.Millisecond, func(ctx app.Context) {
		if seq == p.writeSeq {
			p.writeFragment()
		}
	})
}

// writeFragment puts the form state in the URL without adding a history entry. A body too
// large for an address (permalink.MaxURL) is left out of it, and linkNote says so: a browser
// would refuse to open the link, and writing megabytes into the address bar stalls the page.
func (p *operationPage) writeFragment() string {
	prefix := 0
	if app.IsClient {
		loc := app.Window().Get("location")
		prefix = len(loc.Get("origin").String() + loc.Get("pathname").String())
	}
	f, dropped := permalink.EncodeWithin(p.Op, p.State, prefix)
	frag := "#" + f
	p.linkNote = ""
	if dropped {
		p.linkNote = "The body (" + ui.HumanSize(len(p.State.Body)) + ") is too large for a link: browsers open addresses up to 2 MiB, so the link holds the parameters only."
	}
	p.fragment = frag
	if app.IsClient {
		h := app.Window().Get("history")
		h.Call("replaceState", h.Get("state"), "", frag)
	}
	return frag
}

// fields renders the form's parameters and body and handles their events.
func (p *operationPage) fields() ParamFields {
	return ParamFields{Form: func() *FormState { return &p.formState }, Changed: p.changed}
}

// onResetForm puts every field back to its default and clears the fragment.
func (p *operationPage) onResetForm(ctx app.Context, e app.Event) {
	p.reset()
	p.notice = ""
	p.changed(ctx)
}

func (p *operationPage) onDismissNotice(ctx app.Context, e app.Event) { p.notice = "" }

// held returns the credentials the proxy adds to this operation's requests (HeldNow).
func (p *operationPage) held() []snippet.Credential { return HeldNow(p.API, p.Op, p.oauth) }
