package chat

import (
	"fmt"
	"html"
	"strings"
)

// formSection is a validated form whose submissions are listed below it.
var formSection = section{
	css: `form.stack { display: grid; gap: 0.75rem; max-width: 32rem; }
form.stack label { display: grid; gap: 0.25rem; font-weight: 600; }
[aria-invalid="true"] { border-color: var(--bad); }
#form-status { min-height: 1.5em; }
`,
	html: func(a app) string {
		var b strings.Builder
		b.WriteString("  <section data-kind=\"form\" aria-labelledby=\"form-title\">\n")
		b.WriteString("    <h2 id=\"form-title\">Form</h2>\n")
		b.WriteString("    <form id=\"app-form\" class=\"stack\" novalidate>\n")
		for _, f := range a.spec.formFields {
			req := ""
			if f.required {
				req = " required"
			}
			fmt.Fprintf(&b, "      <label>%s\n", html.EscapeString(f.label))
			switch f.typ {
			case "textarea":
				fmt.Fprintf(&b, "        <textarea name=\"%s\" rows=\"4\"%s></textarea>\n", f.name, req)
			case "select":
				fmt.Fprintf(&b, "        <select name=\"%s\"%s>\n          <option value=\"\">Choose…</option>\n", f.name, req)
				for i := 5; i >= 1; i-- {
					fmt.Fprintf(&b, "          <option value=\"%d\">%s</option>\n", i, strings.Repeat("★", i))
				}
				b.WriteString("        </select>\n")
			case "number":
				fmt.Fprintf(&b, "        <input name=\"%s\" type=\"number\" min=\"0\"%s>\n", f.name, req)
			case "password":
				fmt.Fprintf(&b, "        <input name=\"%s\" type=\"password\" minlength=\"8\" autocomplete=\"new-password\"%s>\n", f.name, req)
			default:
				fmt.Fprintf(&b, "        <input name=\"%s\" type=\"%s\" autocomplete=\"%s\"%s>\n", f.name, f.typ, autocomplete(f.name), req)
			}
			b.WriteString("      </label>\n")
		}
		b.WriteString("      <div class=\"row\"><button type=\"submit\">Submit</button><button type=\"reset\" class=\"secondary\">Clear</button></div>\n")
		b.WriteString("      <p id=\"form-status\" role=\"status\" aria-live=\"polite\"></p>\n")
		b.WriteString("    </form>\n")
		b.WriteString("    <h3>Submissions</h3>\n    <ul id=\"form-submissions\" class=\"muted\"></ul>\n")
		b.WriteString("  </section>\n")
		return b.String()
	},
	js: fixed(`{
  const form = document.getElementById("app-form");
  const status = document.getElementById("form-status");
  const submissions = document.getElementById("form-submissions");
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const invalid = [];
    for (const field of form.querySelectorAll("input, select, textarea")) {
      const ok = field.checkValidity();
      field.setAttribute("aria-invalid", String(!ok));
      if (!ok) invalid.push(field.name);
    }
    if (invalid.length > 0) {
      status.textContent = "Please check: " + invalid.join(", ") + ".";
      form.querySelector("[aria-invalid=true]").focus();
      return;
    }
    const values = [];
    for (const field of form.querySelectorAll("input, select, textarea")) {
      if (field.type !== "password" && field.value) values.push(field.name + ": " + field.value);
    }
    const item = document.createElement("li");
    item.textContent = values.join(" · ");
    submissions.prepend(item);
    status.textContent = "Thanks! Your submission was saved.";
    form.reset();
  });
  form.addEventListener("reset", () => {
    for (const field of form.querySelectorAll("[aria-invalid]")) field.removeAttribute("aria-invalid");
    status.textContent = "";
  });
}
`),
}

// autocomplete returns the autocomplete token for a form field.
func autocomplete(name string) string {
	switch name {
	case "name", "email":
		return name
	case "phone":
		return "tel"
	case "company":
		return "organization"
	case "website":
		return "url"
	}
	return "off"
}

// counterSection is a counter with a step, keyboard shortcuts and a history.
var counterSection = section{
	css: `.count { font-size: 4rem; font-weight: 700; font-variant-numeric: tabular-nums; margin: 0.5rem 0; }
#counter-history { max-height: 10rem; overflow: auto; }
`,
	html: func(a app) string {
		label := "Count"
		if a.spec.noun != "" {
			label = titleCase(a.spec.noun)
		}
		return fmt.Sprintf(`  <section data-kind="counter" aria-labelledby="counter-title">
    <h2 id="counter-title">%s</h2>
    <p class="count" id="counter-value" aria-live="polite">0</p>
    <div class="row">
      <button type="button" id="counter-dec" aria-label="Decrease">−</button>
      <button type="button" id="counter-inc" aria-label="Increase">+</button>
      <label>Step <input id="counter-step" type="number" min="1" value="1" style="width: 5rem"></label>
      <button type="button" id="counter-reset" class="secondary">Reset</button>
    </div>
    <p class="muted">Keyboard: ↑ increases, ↓ decreases, 0 resets.</p>
    <ol id="counter-history" class="muted" reversed></ol>
  </section>
`, html.EscapeString(label))
	},
	js: fixed(`{
  let count = 0;
  const value = document.getElementById("counter-value");
  const step = document.getElementById("counter-step");
  const history = document.getElementById("counter-history");
  const change = (delta, reason) => {
    count = delta === null ? 0 : count + delta;
    value.textContent = String(count);
    const entry = document.createElement("li");
    entry.textContent = reason + " → " + count;
    history.prepend(entry);
    while (history.children.length > 20) history.lastElementChild.remove();
  };
  const size = () => Math.max(1, Number.parseInt(step.value, 10) || 1);
  document.getElementById("counter-inc").addEventListener("click", () => change(size(), "+" + size()));
  document.getElementById("counter-dec").addEventListener("click", () => change(-size(), "−" + size()));
  document.getElementById("counter-reset").addEventListener("click", () => change(null, "reset"));
  document.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement) return;
    if (event.key === "ArrowUp") { event.preventDefault(); change(size(), "+" + size()); }
    if (event.key === "ArrowDown") { event.preventDefault(); change(-size(), "−" + size()); }
    if (event.key === "0") change(null, "reset");
  });
}
`),
}

// timerSection is a stopwatch with laps, or a countdown when the prompt
// asks for one.
var timerSection = section{
	css: `.clock { font-size: 3.5rem; font-weight: 700; font-variant-numeric: tabular-nums; margin: 0.5rem 0; }
.clock.finished { color: var(--bad); }
`,
	html: func(a app) string {
		if a.spec.countdown > 0 {
			return fmt.Sprintf(`  <section data-kind="timer" aria-labelledby="timer-title">
    <h2 id="timer-title">Countdown</h2>
    <p class="clock" id="timer-display" role="timer" aria-live="off">%02d:00</p>
    <div class="row">
      <label>Minutes <input id="timer-minutes" type="number" min="1" max="1440" value="%d" style="width: 6rem"></label>
      <button type="button" id="timer-start">Start</button>
      <button type="button" id="timer-reset" class="secondary">Reset</button>
    </div>
    <p id="timer-status" role="status" aria-live="polite"></p>
  </section>
`, a.spec.countdown, a.spec.countdown)
		}
		return `  <section data-kind="timer" aria-labelledby="timer-title">
    <h2 id="timer-title">Stopwatch</h2>
    <p class="clock" id="timer-display" role="timer" aria-live="off">00:00.00</p>
    <div class="row">
      <button type="button" id="timer-start">Start</button>
      <button type="button" id="timer-lap" class="secondary">Lap</button>
      <button type="button" id="timer-reset" class="secondary">Reset</button>
    </div>
    <ol id="timer-laps" class="muted"></ol>
  </section>
`
	},
	js: func(a app) string {
		if a.spec.countdown > 0 {
			return countdownJS
		}
		return stopwatchJS
	},
}

// stopwatchJS runs the stopwatch.
const stopwatchJS = `{
  const display = document.getElementById("timer-display");
  const start = document.getElementById("timer-start");
  const laps = document.getElementById("timer-laps");
  let elapsed = 0;
  let startedAt = 0;
  let ticker = 0;
  const format = (ms) => {
    const hundredths = Math.floor(ms / 10);
    const minutes = Math.floor(hundredths / 6000);
    const seconds = Math.floor(hundredths / 100) % 60;
    return String(minutes).padStart(2, "0") + ":" + String(seconds).padStart(2, "0") + "." + String(hundredths % 100).padStart(2, "0");
  };
  const now = () => elapsed + (ticker ? performance.now() - startedAt : 0);
  const paint = () => { display.textContent = format(now()); };
  start.addEventListener("click", () => {
    if (ticker) {
      elapsed = now();
      clearInterval(ticker);
      ticker = 0;
      start.textContent = "Start";
    } else {
      startedAt = performance.now();
      ticker = setInterval(paint, 31);
      start.textContent = "Pause";
    }
    paint();
  });
  document.getElementById("timer-lap").addEventListener("click", () => {
    const lap = document.createElement("li");
    lap.textContent = format(now());
    laps.append(lap);
  });
  document.getElementById("timer-reset").addEventListener("click", () => {
    clearInterval(ticker);
    ticker = 0;
    elapsed = 0;
    start.textContent = "Start";
    laps.replaceChildren();
    paint();
  });
}
`

// countdownJS runs the countdown.
const countdownJS = `{
  const display = document.getElementById("timer-display");
  const minutes = document.getElementById("timer-minutes");
  const start = document.getElementById("timer-start");
  const status = document.getElementById("timer-status");
  let remaining = Number(minutes.value) * 60000;
  let endsAt = 0;
  let ticker = 0;
  const format = (ms) => {
    const total = Math.ceil(ms / 1000);
    return String(Math.floor(total / 60)).padStart(2, "0") + ":" + String(total % 60).padStart(2, "0");
  };
  const paint = () => {
    const left = ticker ? Math.max(0, endsAt - performance.now()) : remaining;
    display.textContent = format(left);
    if (ticker && left === 0) {
      clearInterval(ticker);
      ticker = 0;
      remaining = 0;
      start.textContent = "Start";
      display.classList.add("finished");
      status.textContent = "Time's up!";
    }
  };
  start.addEventListener("click", () => {
    if (ticker) {
      remaining = Math.max(0, endsAt - performance.now());
      clearInterval(ticker);
      ticker = 0;
      start.textContent = "Resume";
      status.textContent = "Paused.";
    } else {
      if (remaining <= 0) remaining = Number(minutes.value) * 60000;
      endsAt = performance.now() + remaining;
      ticker = setInterval(paint, 200);
      start.textContent = "Pause";
      status.textContent = "Running.";
      display.classList.remove("finished");
    }
    paint();
  });
  const reset = () => {
    clearInterval(ticker);
    ticker = 0;
    remaining = Math.max(1, Number(minutes.value) || 1) * 60000;
    start.textContent = "Start";
    status.textContent = "";
    display.classList.remove("finished");
    paint();
  };
  document.getElementById("timer-reset").addEventListener("click", reset);
  minutes.addEventListener("change", reset);
}
`

// titleCase upper-cases the first letter of each word.
func titleCase(s string) string {
	words := strings.Fields(s)
	for i, w := range words {
		r := []rune(w)
		r[0] = []rune(strings.ToUpper(string(r[0])))[0]
		words[i] = string(r)
	}
	return strings.Join(words, " ")
}
