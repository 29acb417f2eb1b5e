package chatstream

import (
	"strconv"
	"sync"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/markdown"
	"loupe/app/ui"
)

// Markdown returns the renderer of every answer; its goldmark and bluemonday set-up is
// built once, on the first chat page rather than as the wasm starts (where building the policy
// would delay every page).
var Markdown = sync.OnceValue(markdown.NewRenderer)

// Metrics shows time to first token, tokens per second and token counts of an answer.
func Metrics(a *Answer) []app.UI {
	if a == nil {
		return nil
	}
	metric := func(label, value, title string) app.UI {
		return app.Span().Class("metric").Title(title).Body(app.Span().Class("muted").Text(label+" "), app.Text(value))
	}
	if a.Restored {
		return []app.UI{metric("state", "restored from the link", "This answer came with the link; its timings were not kept")}
	}
	out := []app.UI{}
	ttft := "…"
	if a.ttft > 0 {
		ttft = ui.HumanDuration(a.ttft)
	}
	out = append(out, metric("TTFT", ttft, "Time to first token"))
	rate := "…"
	if secs := a.elapsed.Seconds(); secs > 0.05 && a.tokens() > 1 {
		rate = strconv.FormatFloat(float64(a.tokens()-1)/secs, 'f', 1, 64)
	}
	out = append(out, metric("tokens/s", rate, "Tokens per second after the first token"))
	out = append(out, metric("completion", strconv.Itoa(a.tokens()), "Completion tokens (the API's usage, or chunks received)"))
	if u := a.usage; u != nil {
		out = append(out, metric("prompt", strconv.Itoa(u.PromptTokens), "Prompt tokens"), metric("total", strconv.Itoa(u.TotalTokens), "Total tokens"))
	}
	state := "done"
	switch {
	case a.Streaming:
		state = "streaming"
	case a.Stopped:
		state = "stopped"
	case a.Cut != "":
		state = "cut"
	case a.apiErr != nil || a.NetErr != "":
		state = "error"
	case a.finish != "":
		state = a.finish
	}
	return append(out, metric("state", state, "finish_reason, or how the answer ended"))
}
