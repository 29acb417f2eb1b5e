package ui

import (
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// previewPath is the server's page that renders HTML it receives by postMessage.
const previewPath = "/preview"

// previewSeq numbers previews, for their iframes' ids.
var previewSeq atomic.Int64

// previewProbe is put at the start of a previewed app. It checks, from inside, that Loupe is
// out of reach (touching parent.document must throw), and posts what it found, the app's
// title and its runtime errors to Loupe. Posting a message is the only way out of the frame.
const previewProbe = `<script>(function(){
var probe = "unknown";
try { var d = window.parent.document; probe = "reachable: " + (d && d.title); } catch (e) { probe = "blocked: " + (e && e.name); }
function send(m) { try { window.parent.postMessage(m, "*"); } catch (e) {} }
window.addEventListener("error", function (e) { send({loupe: "preview-error", message: String(e && e.message)}); });
window.addEventListener("load", function () {
  send({loupe: "preview", parentBlocked: probe.indexOf("blocked") === 0, probe: probe,
        title: String(document.title), elements: document.getElementsByTagName("*").length});
});
})();</script>`

// htmlPreview runs an HTML code block of an answer in an iframe sandboxed with allow-scripts
// only: the app's scripts run, but in an opaque origin, so they cannot touch Loupe's page,
// cookies or storage. The frame loads the server's /preview page (its own CSP allows inline
// scripts; a srcdoc frame would inherit Loupe's CSP, which forbids them) and gets the HTML by
// postMessage once the page says it is ready: the HTML never travels through a URL.
type htmlPreview struct {
	app.Compo

	// Code is the HTML document to run.
	Code string

	id       string
	listener app.Func
	probed   bool
	blocked  bool
	probe    string
	title    string
	elements int
	errors   []string
}

// NewHTMLPreview returns a preview running the HTML document code.
func NewHTMLPreview(code string) *htmlPreview { return &htmlPreview{Code: code} }

// OnMount listens to the messages the frame posts.
func (p *htmlPreview) OnMount(ctx app.Context) {
	p.listener = app.FuncOf(func(this app.Value, args []app.Value) any {
		if len(args) > 0 {
			p.onMessage(ctx, args[0])
		}
		return nil
	})
	app.Window().Call("addEventListener", "message", p.listener)
}

// OnDismount stops listening.
func (p *htmlPreview) OnDismount() {
	if p.listener != nil {
		app.Window().Call("removeEventListener", "message", p.listener)
		p.listener.Release()
		p.listener = nil
	}
}

// OnUpdate reloads the frame for new code: the preview page renders once per load.
func (p *htmlPreview) OnUpdate(ctx app.Context) {
	p.probed, p.blocked, p.probe, p.title, p.elements, p.errors = false, false, "", "", 0, nil
	if frame := app.Window().Get("document").Call("getElementById", p.id); frame.Truthy() {
		frame.Set("src", Href(previewPath))
	}
}

// onMessage answers the preview page's "ready" with the HTML, and takes the probe's report.
// Only messages from this preview's own frame count, and they are read as plain values.
func (p *htmlPreview) onMessage(ctx app.Context, ev app.Value) {
	frame := app.Window().Get("document").Call("getElementById", p.id)
	if !frame.Truthy() || !ev.Get("source").Equal(frame.Get("contentWindow")) {
		return
	}
	data := ev.Get("data")
	if data.Type() != app.TypeObject {
		return
	}
	if r := data.Get("loupePreview"); r.Type() == app.TypeString && r.String() == "ready" {
		msg := app.Window().Get("Object").New()
		msg.Set("loupePreview", "render")
		msg.Set("html", previewDoc(p.Code))
		frame.Get("contentWindow").Call("postMessage", msg, "*")
		return
	}
	str := func(k string) string {
		v := data.Get(k)
		if v.Type() != app.TypeString {
			return ""
		}
		s := v.String()
		if len(s) > 300 {
			s = s[:300] + "…"
		}
		return s
	}
	switch str("loupe") {
	case "preview":
		// Whether the app is isolated is Loupe's own finding, never the app's word (its
		// parentBlocked could say anything): a message from a frame without same-origin comes
		// from the opaque origin "null", and such a frame's document is hidden from its parent.
		isolated := isolatedFrame(ev.Get("origin").String(), !frame.Get("contentDocument").Truthy())
		ctx.Dispatch(func(app.Context) {
			p.probed, p.blocked, p.probe, p.title = true, isolated, str("probe"), str("title")
			if n := data.Get("elements"); n.Type() == app.TypeNumber {
				p.elements = n.Int()
			}
		})
	case "preview-error":
		ctx.Dispatch(func(app.Context) {
			if len(p.errors) < 20 {
				p.errors = append(p.errors, str("message"))
			}
		})
	}
}

// previewDoc puts the probe into the app: after <head>, else after the doctype, else first,
// so a document with a doctype stays in standards mode.
func previewDoc(code string) string {
	lower := strings.ToLower(code)
	if i := strings.Index(lower, "<head>"); i >= 0 {
		return code[:i+6] + previewProbe + code[i+6:]
	}
	if strings.HasPrefix(strings.TrimSpace(lower), "<!doctype") {
		if i := strings.IndexByte(code, '>'); i >= 0 {
			return code[:i+1] + previewProbe + code[i+1:]
		}
	}
	return previewProbe + code
}

// Render implements app.Composer.
func (p *htmlPreview) Render() app.UI {
	if p.id == "" {
		p.id = "html-preview-" + strconv.FormatInt(previewSeq.Add(1), 10)
	}
	status := "Starting the app in a sandboxed frame…"
	parent := "unknown"
	report := ""
	if p.probed {
		parent = "reachable"
		status = "Running, NOT isolated: the app's frame can reach Loupe's page."
		if p.blocked {
			parent = "blocked"
			status = "Running in isolation: sandbox=\"allow-scripts\" without same-origin; Loupe checked that the frame's origin is opaque and its document hidden."
		}
		// What the app itself says is shown apart from Loupe's finding, as its words.
		report = probeReport(p.probe)
		if p.title != "" {
			report += " Title: “" + p.title + "”."
		}
	}
	var errs []app.UI
	for _, e := range p.errors {
		errs = append(errs, app.Li().Class("mono").Text(e))
	}
	return app.Div().Class("html-preview").Body(
		app.IFrame().ID(p.id).Title("Preview of the generated app").
			Sandbox("allow-scripts").Attr("referrerpolicy", "no-referrer").Src(Href(previewPath)),
		app.P().Class("preview-status muted").DataSet("parent", parent).Body(
			app.Span().Class("preview-verdict").Text(status),
			app.If(report != "", func() app.UI { return app.Span().Class("preview-report").Text(" " + report) }),
		),
		app.If(len(errs) > 0, func() app.UI {
			return app.Div().Class("preview-errors alert alert-error").Body(
				app.Strong().Text("The app reported errors:"), app.Ul().Body(errs...),
			)
		}),
	)
}

// probeReport says in words what the app's own check found when it tried to read Loupe's page
// (the probe posts "blocked: SecurityError" or "reachable: <title>").
func probeReport(probe string) string {
	kind, detail, _ := strings.Cut(probe, ": ")
	switch kind {
	case "blocked":
		return "The app's own attempt to read Loupe's page was refused (" + detail + ")."
	case "reachable":
		return "The app says it could read Loupe's page."
	}
	return "The app's own check gave no answer."
}

// isolatedFrame reports whether a preview frame is isolated from Loupe's page, from what Loupe
// sees itself: its messages come from the opaque origin "null" and its document is hidden.
func isolatedFrame(origin string, docHidden bool) bool { return origin == "null" && docHidden }
