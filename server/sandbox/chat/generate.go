package chat

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// reply is the model's whole answer, before the output budget cuts it.
type reply struct {
	content string     // Markdown, when the answer is text
	calls   []toolCall // when the answer calls tools
}

// seedOf hashes everything that shapes the answer, so the same request gets
// the same answer and any change to it gets another.
func seedOf(req *chatRequest, msgs []message) [32]byte {
	h := sha256.New()
	write := func(parts ...string) {
		for _, p := range parts {
			_ = binary.Write(h, binary.LittleEndian, uint64(len(p))) // hash.Hash never fails
			h.Write([]byte(p))
		}
	}
	write(req.Model)
	for _, m := range msgs {
		write(m.role, m.text, m.toolCallID)
		for _, im := range m.images {
			write(im.describe(), fmt.Sprint(im.bytes))
		}
		for _, c := range m.toolCalls {
			write(c.ID, c.Function.Name, c.Function.Arguments)
		}
	}
	for _, t := range req.Tools {
		write(t.Function.Name, string(t.Function.Parameters))
	}
	write(string(req.ToolChoice))
	if len(req.ResponseFormat) > 0 {
		write(string(req.ResponseFormat))
	}
	return sha256.Sum256(h.Sum(nil))
}

// rngOf returns a generator for stream number stream of seed.
func rngOf(seed [32]byte, stream uint64) *rand.Rand {
	return rand.New(rand.NewPCG(binary.LittleEndian.Uint64(seed[:8]), binary.LittleEndian.Uint64(seed[8:16])^stream))
}

// compose writes the answer to the conversation. budget is the output
// budget in tokens: an answer asked to be longer is generated only a little
// past it, since it is cut there anyway.
// The content follows the response format (format.go).
func compose(req *chatRequest, msgs []message, choice toolChoice, format responseFormat, seed [32]byte, budget int) (reply, *apiError) {
	if picked := pickTools(req, choice, msgs); len(picked) > 0 {
		facts := factsOf(lastUserText(msgs))
		var r reply
		for n, i := range picked {
			t := req.Tools[i]
			args, err := toolArguments(t.Function.Parameters, facts)
			if err != nil {
				return reply{}, invalidRequest(fmt.Sprintf("tools[%d].function.parameters", i), "invalid_value",
					"Invalid 'tools[%d].function.parameters': %v.", i, err)
			}
			id := sha256.Sum256(append(seed[:], byte(n)))
			r.calls = append(r.calls, toolCall{id: "call_" + hex.EncodeToString(id[:12]), name: t.Function.Name, arguments: args})
		}
		return r, nil
	}
	content, apiErr := formatContent(format, msgs, seed, budget)
	return reply{content: content}, apiErr
}

// answerPlan is what an answer is made of, before its size is chosen: the
// app the conversation asks for, the images and tool results it shows.
type answerPlan struct {
	s       spec
	images  []imageInfo
	note    string // what the tools returned, on one line
	results []toolResult
	updated bool // an earlier answer is being updated
	seed    [32]byte
}

// planAnswer reads the conversation into an answerPlan.
func planAnswer(msgs []message, seed [32]byte) answerPlan {
	p := answerPlan{seed: seed}
	var users []string
	for _, m := range msgs {
		switch m.role {
		case "user":
			users = append(users, m.text)
			p.images = m.images // the last user message's images
		case "assistant":
			p.updated = p.updated || m.text != ""
		}
	}
	pick := rngOf(seed, 1)
	images := p.images
	p.s = analyze(users, func(n int) int {
		if len(images) > 0 {
			return slices.Index(userKinds, kindGallery) // a prompt that is mostly a picture
		}
		return pick.IntN(n)
	})
	p.results = recentToolResults(msgs)
	if len(p.results) > 0 {
		parts := make([]string, len(p.results))
		for i, r := range p.results {
			parts[i] = fmt.Sprintf("From %s: %s", r.name, oneLine(r.content, 300))
		}
		p.note = strings.Join(parts, " · ")
	}
	return p
}

// app is the plan's app with n sample records.
func (p answerPlan) app(n int) app {
	return newApp(p.s, makeRows(rngOf(p.seed, 2), n, p.s.noun), p.images, p.note)
}

// answerText writes the Markdown answer: acknowledgements, a plan and the app.
func answerText(msgs []message, seed [32]byte, budget int) string {
	p := planAnswer(msgs, seed)
	s := p.s
	build := func(n, budget int) string {
		return markdown(p.app(n), p.results, p.updated, budget)
	}
	if s.target <= 0 {
		return build(s.rows, budget)
	}
	// Fit the data set to the requested length, in a few passes.
	limit := s.target
	if limit >= budget {
		limit = budget + 1 // past the budget: cut there, with finish_reason "length"
	}
	// The fitting counts whole answers: no early stop (budget 0).
	base := countTokens(build(1, 0))
	per := max(1, (countTokens(build(51, 0))-base)/50)
	n := min(max(1, 1+(limit-base)/per), maxRows)
	text := build(n, 0)
	for range 6 {
		got := countTokens(text)
		if got >= limit || n == maxRows {
			break
		}
		n = min(n+(limit-got)/per+1, maxRows)
		text = build(n, 0)
	}
	return text
}

// oneLine flattens s to one line of at most n runes.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// answerSizeHint is what markdown reserves for an answer: most are 4–8 KB, so one
// allocation holds them rather than a builder doubling its way there.
const answerSizeHint = 8 << 10

// markdown writes the answer around the app. With budget > 0 it stops before the app once
// the text holds budget+2 tokens, as a model stops at its output limit: the budget cuts the
// answer there anyway, and every token of the text but its last is a token of the whole answer
// (the tokenizer looks one character past a token), so cut gives the same first budget tokens
// and finish_reason "length" either way. A short max_tokens then costs no app.
func markdown(a app, results []toolResult, updated bool, budget int) string {
	var b strings.Builder
	for _, r := range results {
		fmt.Fprintf(&b, "The `%s` tool returned: %s\n\n", r.name, oneLine(r.content, 300))
	}
	if len(a.images) > 0 {
		descs := make([]string, len(a.images))
		for i, im := range a.images {
			descs[i] = im.describe()
		}
		if len(descs) == 1 {
			fmt.Fprintf(&b, "I see %s.", descs[0])
		} else {
			fmt.Fprintf(&b, "I see %d images: %s.", len(descs), strings.Join(descs, "; "))
		}
		if has(a.kinds, kindGallery) {
			b.WriteString(" It gets the first gallery tile, with the same aspect ratio.")
		}
		b.WriteString("\n\n")
	}
	verb := "Here's"
	if updated {
		verb = "Here's the updated"
	}
	fmt.Fprintf(&b, "%s **%s**: a single-file app with %s.\n\n", verb, a.heading, featureList(a.kinds, a.spec.countdown > 0))
	b.WriteString("**Plan**\n\n")
	for _, line := range a.plan() {
		b.WriteString("- ")
		b.WriteString(line)
		b.WriteByte('\n')
	}
	if budget > 0 && countTokens(b.String()) >= budget+2 {
		return b.String()
	}
	b.Grow(answerSizeHint)
	b.WriteString("\n```html\n")
	a.render(&b)
	b.WriteString("```\n\nSave it as `index.html` and open it in a browser: no build step, no dependencies, no network.\n")
	return b.String()
}

// has reports whether ks holds k.
func has(ks []kind, k kind) bool {
	for _, x := range ks {
		if x == k {
			return true
		}
	}
	return false
}

// featureList names the sections in prose: "a chart and a table".
func featureList(ks []kind, countdown bool) string {
	names := make([]string, len(ks))
	for i, k := range ks {
		names[i] = "a " + strings.ToLower(kindLabels[k])
		switch {
		case k == kindCards:
			names[i] = "summary cards"
		case k == kindTimer && countdown:
			names[i] = "a countdown"
		}
	}
	switch len(names) {
	case 1:
		return names[0]
	case 2:
		return names[0] + " and " + names[1]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// plan lists the steps the answer takes, one per section.
func (a app) plan() []string {
	noun := a.spec.noun
	if noun == "" {
		noun = "records"
	}
	lines := []string{"Layout: a header and one card per feature; responsive, and it follows the system light or dark theme."}
	if a.hasData {
		lines = append(lines, fmt.Sprintf("Data: %d sample %s in an inline `DATA` array (id, name, category, value, status, date).", len(a.rows), noun))
	}
	if a.note != "" {
		lines = append(lines, "Tool results: shown at the top of the page.")
	}
	for _, k := range a.kinds {
		switch k {
		case kindCards:
			lines = append(lines, "Summary: cards for the record count, total, average, active and done.")
		case kindForm:
			labels := make([]string, len(a.spec.formFields))
			for i, f := range a.spec.formFields {
				labels[i] = strings.ToLower(f.label)
			}
			lines = append(lines, fmt.Sprintf("Form: %s, with built-in validation, marked invalid fields and a list of submissions.", strings.Join(labels, ", ")))
		case kindCounter:
			lines = append(lines, "Counter: increase or decrease by a chosen step, keyboard shortcuts and a history of changes.")
		case kindTimer:
			if a.spec.countdown > 0 {
				lines = append(lines, fmt.Sprintf("Countdown: %d minutes, pause and resume, and a message when time is up.", a.spec.countdown))
			} else {
				lines = append(lines, "Stopwatch: start, pause, laps and reset, timed with performance.now().")
			}
		case kindChart:
			lines = append(lines, "Chart: a canvas with bar and line views, redrawn on resize with the theme's colours.")
		case kindList:
			lines = append(lines, fmt.Sprintf("List: add, check off, remove and filter %s.", noun))
		case kindTable:
			lines = append(lines, "Table: sort by any column and search by name, category or status.")
		case kindGallery:
			lines = append(lines, "Gallery: generated gradient tiles, category filters and a lightbox with arrow-key navigation.")
		}
	}
	return append(lines, "Accessibility: labelled controls, visible focus and live status messages.")
}
