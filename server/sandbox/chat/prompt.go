package chat

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// kind is one kind of app section the model knows how to write.
type kind string

// The app kinds, in the order their sections appear on the page.
const (
	kindCards     kind = "cards" // KPI cards, part of a dashboard
	kindForm      kind = "form"
	kindCounter   kind = "counter"
	kindTimer     kind = "timer"
	kindChart     kind = "chart"
	kindList      kind = "list"
	kindTable     kind = "table"
	kindGallery   kind = "gallery"
	kindDashboard kind = "dashboard" // expands to cards, chart and table
)

// pageOrder is the order of sections on the page.
var pageOrder = []kind{kindCards, kindForm, kindCounter, kindTimer, kindChart, kindList, kindTable, kindGallery}

// userKinds are the kinds a prompt can ask for, in the order a random pick
// uses when it names none.
var userKinds = []kind{kindForm, kindList, kindTable, kindChart, kindTimer, kindCounter, kindGallery, kindDashboard}

// kindWords maps prompt words to kinds.
var kindWords = map[string]kind{
	"form": kindForm, "forms": kindForm, "signup": kindForm, "register": kindForm, "registration": kindForm,
	"poll": kindForm, "quiz": kindForm, "booking": kindForm, "reservation": kindForm, "kanban": kindList,
	"leaderboard": kindTable, "inventory": kindTable,
	"contact": kindForm, "survey": kindForm, "login": kindForm, "feedback": kindForm, "rsvp": kindForm, "questionnaire": kindForm,
	"list": kindList, "lists": kindList, "todo": kindList, "todos": kindList, "checklist": kindList, "tasks": kindList, "task": kindList, "shopping": kindList,
	"table": kindTable, "tables": kindTable, "spreadsheet": kindTable, "sortable": kindTable, "rows": kindTable, "datagrid": kindTable,
	"chart": kindChart, "charts": kindChart, "graph": kindChart, "graphs": kindChart, "plot": kindChart, "visualization": kindChart, "visualisation": kindChart,
	"timer": kindTimer, "stopwatch": kindTimer, "countdown": kindTimer, "pomodoro": kindTimer, "clock": kindTimer,
	"counter": kindCounter, "counters": kindCounter, "tally": kindCounter, "clicker": kindCounter, "increment": kindCounter,
	"gallery": kindGallery, "photos": kindGallery, "photo": kindGallery, "images": kindGallery, "pictures": kindGallery, "portfolio": kindGallery, "carousel": kindGallery, "album": kindGallery,
	"dashboard": kindDashboard, "dashboards": kindDashboard, "analytics": kindDashboard, "admin": kindDashboard, "kpi": kindDashboard, "kpis": kindDashboard, "metrics": kindDashboard,
}

// stopwords are words that never name the app's subject.
var stopwords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an the and or but if then else of for to in on at by with without from into onto
		about as is are was were be been being do does did done doing have has had having i me my mine we us our you your yours
		he she it its they them their this that these those there here what which who whom whose when where why how all any
		both each few more most other some such no nor not only own same so than too very can will just should could would
		may might must shall please make build create write generate give show want need like using use used single page
		file html css js javascript app application web website site simple small basic nice clean modern beautiful responsive
		interactive little tiny quick minimal complete working full one two three four five six seven eight nine ten also add
		now let lets let's me new track tracking tracker manage manager managing keep keeps some way help get set up out long large big huge
		many lot lots answer token tokens item items entries entry records record row rows column columns data sample
		bar line pie dark light mode style styled theme feature features section sections button buttons vanilla plain
		minute minutes second seconds hour hours day days week weeks
		hello hi hey thanks thank okay ok sure tool tools function call it's that's i'm can't don't`) {
		stopwords[w] = true
	}
}

// isStopword reports whether w (lower case) is a stopword or a kind keyword.
func isStopword(w string) bool {
	_, isKind := kindWords[w]
	return stopwords[w] || isKind
}

// wordRe matches words.
var wordRe = regexp.MustCompile(`[\p{L}][\p{L}\p{N}'’-]*`)

// contentWords returns the lower-case words of text that may name its
// subject: not stopwords, not kind keywords, at least three letters.
func contentWords(text string) []string {
	var out []string
	for _, w := range wordRe.FindAllString(text, -1) {
		w = strings.ToLower(strings.Trim(w, "'’-"))
		if len([]rune(w)) < 3 || isStopword(w) || strings.ContainsAny(w, "'’") {
			continue
		}
		out = append(out, w)
	}
	return out
}

// spec is what the prompt asks for.
type spec struct {
	kinds      []kind // as asked, before dashboard expansion
	title      string // e.g. "Book Club"
	noun       string // the records' noun, plural, e.g. "books"
	rows       int    // records in the data set
	target     int    // requested answer length in tokens, 0 for none
	chartLine  bool   // "line chart" rather than bars
	countdown  int    // countdown minutes, 0 for a stopwatch
	formFields []formField
}

var (
	tokenTargetRe = regexp.MustCompile(`(?i)(\d[\d,_]*)\s*(?:-\s*)?(?:k\s*)?tokens?\b`)
	rowCountRe    = regexp.MustCompile(`(?i)(\d[\d,_]*)\s+(?:[\p{L}-]+\s+)?(rows|items|entries|records|tasks|todos|cards|photos|images|pictures|points|tiles|products|users|books|people|orders|lines|things|elements)\b`)
	minutesRe     = regexp.MustCompile(`(?i)(\d+)\s*(?:-\s*)?min(?:ute)?s?\b`)
	kTokensRe     = regexp.MustCompile(`(?i)(\d+)\s*k\s*-?\s*tokens?\b`)
	manyRe        = regexp.MustCompile(`\b(long|large|big|huge|lots|many)\b`)
	lineChartRe   = regexp.MustCompile(`\bline\s+(chart|graph)\b`)
)

// maxRows caps the data set; the output budget caps the answer long before.
const maxRows = 20000

// defaultRows is the data set size when the prompt gives none.
const defaultRows = 8

// analyze reads the user messages (earlier ones first) into a spec. Kinds
// accumulate over the conversation, so "now add a chart" keeps the earlier
// app; counts and lengths come from the latest message that gives one.
func analyze(users []string, pick func(n int) int) spec {
	s := spec{rows: defaultRows}
	seen := map[kind]bool{}
	var words, triggers []string
	for _, text := range users {
		lower := strings.ToLower(text)
		for _, w := range wordRe.FindAllString(lower, -1) {
			if k, ok := kindWords[w]; ok && !seen[k] {
				seen[k] = true
				s.kinds = append(s.kinds, k)
				if w != string(k) && !strings.HasPrefix(w, string(k)) {
					triggers = append(triggers, w)
				}
			}
		}
		if strings.Contains(lower, "to-do") || strings.Contains(lower, "to do list") {
			if !seen[kindList] {
				seen[kindList] = true
				s.kinds = append(s.kinds, kindList)
			}
		}
		words = append(words, contentWords(text)...)
		if m := kTokensRe.FindStringSubmatch(text); m != nil {
			s.target = atoi(m[1]) * 1000
		} else if m := tokenTargetRe.FindStringSubmatch(text); m != nil {
			s.target = atoi(m[1])
		}
		if m := rowCountRe.FindStringSubmatch(text); m != nil {
			s.rows = min(max(atoi(m[1]), 1), maxRows)
		} else if manyRe.MatchString(lower) {
			s.rows = 100
		}
		if m := minutesRe.FindStringSubmatch(text); m != nil {
			s.countdown = min(max(atoi(m[1]), 1), 24*60)
		}
		if strings.Contains(lower, "countdown") || strings.Contains(lower, "pomodoro") {
			if s.countdown == 0 {
				s.countdown = 25
			}
		}
		if lineChartRe.MatchString(lower) {
			s.chartLine = true
		}
		if seen[kindForm] {
			s.formFields = formFieldsOf(lower)
		}
	}
	if len(s.kinds) == 0 {
		s.kinds = []kind{userKinds[pick(len(userKinds))]}
	}
	if has(s.kinds, kindForm) && len(s.formFields) == 0 {
		s.formFields = formFieldsOf("")
	}
	s.title, s.noun = titleOf(words)
	if s.title == "" && len(triggers) > 0 && len(s.kinds) == 1 {
		s.title, _ = titleOf(triggers[:1]) // "contact form" is a Contact Form
	}
	return s
}

// atoi reads a number written with optional , or _ separators.
func atoi(s string) int {
	n, err := strconv.Atoi(strings.NewReplacer(",", "", "_", "").Replace(s))
	if err != nil {
		return 0
	}
	return n
}

// titleOf builds the app title from the first two content words and the
// records' noun from the last one.
func titleOf(words []string) (title, noun string) {
	var picked []string
	for _, w := range words {
		if len(picked) == 2 {
			break
		}
		if len(picked) == 0 || picked[0] != w {
			picked = append(picked, w)
		}
	}
	for i, w := range picked {
		r := []rune(w)
		r[0] = unicode.ToUpper(r[0])
		picked[i] = string(r)
	}
	title = strings.Join(picked, " ")
	if len(words) > 0 {
		noun = plural(words[len(words)-1])
	}
	return title, noun
}

// plural guesses an English plural.
func plural(w string) string {
	switch {
	case strings.HasSuffix(w, "s"):
		return w
	case strings.HasSuffix(w, "y") && !strings.HasSuffix(w, "ey") && !strings.HasSuffix(w, "ay") && !strings.HasSuffix(w, "oy"):
		return strings.TrimSuffix(w, "y") + "ies"
	case strings.HasSuffix(w, "ch") || strings.HasSuffix(w, "sh") || strings.HasSuffix(w, "x"):
		return w + "es"
	}
	return w + "s"
}

// formField is one input of a generated form.
type formField struct {
	name, label, typ string // typ: text, email, tel, password, number, date, url, textarea, select
	required         bool
}

// knownFields are the fields a form prompt can name, in form order.
var knownFields = []struct {
	words []string
	field formField
}{
	{[]string{"name", "names", "signup", "register", "registration", "contact", "rsvp"}, formField{"name", "Name", "text", true}},
	{[]string{"email", "e-mail", "mail", "signup", "login", "register", "contact", "newsletter", "subscribe"}, formField{"email", "Email", "email", true}},
	{[]string{"password", "login", "signup", "register"}, formField{"password", "Password", "password", true}},
	{[]string{"phone", "telephone", "mobile"}, formField{"phone", "Phone", "tel", false}},
	{[]string{"company", "organisation", "organization"}, formField{"company", "Company", "text", false}},
	{[]string{"website", "url"}, formField{"website", "Website", "url", false}},
	{[]string{"age"}, formField{"age", "Age", "number", false}},
	{[]string{"date", "birthday", "rsvp", "booking", "appointment", "reservation"}, formField{"date", "Date", "date", true}},
	{[]string{"guests", "quantity", "amount"}, formField{"quantity", "Quantity", "number", false}},
	{[]string{"rating", "survey", "feedback"}, formField{"rating", "Rating", "select", true}},
	{[]string{"subject", "topic"}, formField{"subject", "Subject", "text", false}},
	{[]string{"message", "comments", "comment", "contact", "feedback", "survey", "notes"}, formField{"message", "Message", "textarea", false}},
}

// formFieldsOf picks the form's fields from the prompt; with none named, a
// contact form (name, email, message).
func formFieldsOf(lower string) []formField {
	words := map[string]bool{}
	for _, w := range wordRe.FindAllString(lower, -1) {
		words[w] = true
	}
	var out []formField
	for _, kf := range knownFields {
		for _, w := range kf.words {
			if words[w] {
				out = append(out, kf.field)
				break
			}
		}
	}
	if len(out) == 0 {
		return formFieldsOf("name email message")
	}
	return out
}
