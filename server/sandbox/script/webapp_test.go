package script

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"loupe/server/sandbox"
)

// webAppCode is a web app: doGet answers JSON, HTML from a template or a file, or fails;
// doPost echoes its form and body.
const webAppCode = `function doGet(e) {
  switch (e.parameter.page) {
    case 'json':
      return ContentService.createTextOutput(JSON.stringify({hello: e.parameter.name, path: e.pathInfo || ''}))
        .setMimeType(ContentService.MimeType.JSON);
    case 'csv':
      return ContentService.createTextOutput('a,b\n1,2\n').setMimeType(ContentService.MimeType.CSV).downloadAsFile('t.csv');
    case 'html':
      var t = HtmlService.createTemplateFromFile('Page');
      t.name = e.parameter.name;
      return t.evaluate().setTitle('Greeting');
    case 'throw':
      throw new TypeError('bad page');
    case 'nothing':
      return 42;
  }
  return HtmlService.createHtmlOutput('<p>home</p>');
}
function doPost(e) {
  PropertiesService.getScriptProperties().setProperty('last', e.parameter.item);
  return ContentService.createTextOutput(e.parameter.item + '|' + e.postData.type + '|' + e.postData.contents);
}
`

// webAppPage is the template the web app's html page evaluates.
const webAppPage = `<!doctype html><h1 id="greeting">Hello, <?= name ?>!</h1><? for (var i = 0; i < 2; i++) { ?><i><?!= i ?></i><? } ?>`

// deployWebApp saves the web app as the seeded project's HEAD, makes a version and deploys it;
// it returns the handler and the deployment's ID.
func deployWebApp(t *testing.T, code string) (http.Handler, string) {
	t.Helper()
	h, _ := newTest(t)
	man := `{"timeZone":"Europe/London","runtimeVersion":"V8","executionApi":{"access":"MYSELF"},"webapp":{"access":"ANYONE","executeAs":"USER_DEPLOYING"}}`
	mustCall(t, h, "PUT", contentPath, `{"files":[{"name":"appsscript","type":"JSON","source":`+js(man)+`},`+
		`{"name":"Code","type":"SERVER_JS","source":`+js(code)+`},{"name":"Page","type":"HTML","source":`+js(webAppPage)+`}]}`)
	v := mustCall(t, h, "POST", "/v1/projects/"+SeedScriptID+"/versions", `{"description":"web"}`)
	d := mustCall(t, h, "POST", "/v1/projects/"+SeedScriptID+"/deployments", sprintf(`{"versionNumber":%v}`, v["versionNumber"]))
	return h, d["deploymentId"].(string)
}

// fetch sends method path (body a form when not "") to h with no credential.
func fetch(h http.Handler, method, path, body string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, path, strings.NewReader(body))
	if body != "" {
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// TestWebAppAnswers checks a deployed web app at its URL: ContentService output with its MIME
// type, HtmlService output framed from a sandboxed address, doPost with a form, and the error
// pages of a script that throws, returns no output or is not deployed as a web app.
func TestWebAppAnswers(t *testing.T) {
	h, id := deployWebApp(t, webAppCode)
	exec := "/macros/s/" + id + "/exec"
	tests := []struct {
		name, method, path, body string
		code                     int
		typ, want                string
	}{
		{"json", "GET", exec + "/a/b?page=json&name=Ada", "", 200, "application/json; charset=utf-8", `{"hello":"Ada","path":"a/b"}`},
		{"csv download", "GET", exec + "?page=csv", "", 200, "text/csv; charset=utf-8", "a,b\n1,2\n"},
		{"post", "POST", exec + "?x=1", "item=pen", 200, "text/plain; charset=utf-8", "pen|application/x-www-form-urlencoded|item=pen"},
		{"throw", "GET", exec + "?page=throw", "", 500, "text/html; charset=utf-8", "TypeError: bad page"},
		{"no output", "GET", exec + "?page=nothing", "", 500, "text/html; charset=utf-8", "The script completed but the returned value is not a supported return type."},
		{"not a web app", "GET", "/macros/s/" + SeedAddOnDeploymentID + "/exec", "", 404, "text/html; charset=utf-8", "No web app is deployed at this address"},
		{"no doGet", "GET", "/macros/s/" + SeedDeploymentID + "/exec", "", 500, "text/html; charset=utf-8", "ScriptError: Script function not found: doGet"},
		{"dev of a version", "GET", "/macros/s/" + id + "/dev", "", 404, "text/html; charset=utf-8", "No web app is deployed at this address"},
		{"bad path", "GET", "/macros/s/" + id, "", 404, "text/html; charset=utf-8", "a web app&#39;s URL ends in /exec"},
	}
	for _, tt := range tests {
		w := fetch(h, tt.method, tt.path, tt.body)
		if got := w.Header().Get("Content-Type"); w.Code != tt.code || got != tt.typ || !strings.Contains(w.Body.String(), tt.want) {
			t.Errorf("%s: got %d %s %q; want %d %s containing %q", tt.name, w.Code, got, w.Body, tt.code, tt.typ, tt.want)
		}
		if csp := w.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "sandbox") {
			t.Errorf("%s: CSP %q; want a sandbox", tt.name, csp)
		}
	}
	if got := fetch(h, "GET", exec+"?page=csv", "").Header().Get("Content-Disposition"); got != `attachment; filename=t.csv` {
		t.Errorf("csv: Content-Disposition got %q", got)
	}
	// The POST's property is kept in the user's state.
	got := js(get(mustCall(t, h, "POST", "/v1/scripts/"+SeedScriptID+":run", `{"function":"doGet","devMode":true,"parameters":[{"parameter":{"page":"json","name":"x"}}]}`), "done"))
	if got != "true" {
		t.Errorf("a run after the web app: %s", got)
	}
	ps := mustCall(t, h, "GET", "/v1/processes:listScriptProcesses?scriptId="+SeedScriptID+"&scriptProcessFilter.types=WEBAPP&pageSize=1", "")
	if got := js(get(ps, "processes", 0, "functionName")) + js(get(ps, "processes", 0, "processType")); got != `"doGet""WEBAPP"` {
		t.Errorf("the web app's runs: got %s; want doGet WEBAPP processes", js(ps))
	}
}

// frameSrc finds the address of the frame in a web app's page.
var frameSrc = regexp.MustCompile(`<iframe id="sandboxFrame" title="([^"]*)" src="([^"]+)" sandbox="allow-scripts[^"]*"`)

// TestWebAppHTMLIsFramed checks that HtmlService output is not served at the web app's URL
// but framed from an address whose answer has a sandbox policy (an opaque origin), that only
// Loupe's own pages may frame.
func TestWebAppHTMLIsFramed(t *testing.T) {
	h, id := deployWebApp(t, webAppCode)
	page := "/macros/s/" + id + "/exec?page=html&name=%3Cb%3EAda"
	w := fetch(h, "GET", page, "")
	if w.Code != 200 || strings.Contains(w.Body.String(), "Hello") {
		t.Fatalf("the page: got %d %s; want 200 without the app's HTML", w.Code, w.Body)
	}
	if csp := w.Header().Get("Content-Security-Policy"); csp != outerCSP {
		t.Errorf("the page's CSP: got %q; want %q", csp, outerCSP)
	}
	m := frameSrc.FindStringSubmatch(w.Body.String())
	if m == nil || m[1] != "Greeting" {
		t.Fatalf("the page frames nothing titled Greeting: %s", w.Body)
	}
	src, err := url.Parse("http://loupe.test/sandbox/script" + strings.SplitN(page, "?", 2)[0])
	if err != nil {
		t.Fatal(err)
	}
	frame := src.ResolveReference(&url.URL{Path: m[2]}).Path
	if !strings.HasPrefix(frame, "/sandbox/script/macros/frames/") {
		t.Fatalf("the frame's address %s is not under /sandbox/script/macros/frames/", frame)
	}
	f := fetch(h, "GET", strings.TrimPrefix(frame, "/sandbox/script"), "")
	want := `<!doctype html><h1 id="greeting">Hello, &lt;b&gt;Ada!</h1><i>0</i><i>1</i>`
	if f.Code != 200 || f.Body.String() != want {
		t.Errorf("the frame: got %d %q; want 200 %q", f.Code, f.Body, want)
	}
	if csp := f.Header().Get("Content-Security-Policy"); csp != frameCSP || !strings.HasPrefix(csp, "sandbox allow-scripts") || strings.Contains(csp, "allow-same-origin") {
		t.Errorf("the frame's CSP: got %q; want a sandbox without allow-same-origin", csp)
	}
	if got := fetch(h, "GET", "/macros/frames/nope", "").Code; got != 404 {
		t.Errorf("an unknown frame: got %d; want 404", got)
	}
}

// TestWebAppURLs checks the entry point's URL: the real API's form without a serving address,
// the sandbox's own address with one (as the Loupe server and its proxy send it), /dev for HEAD.
func TestWebAppURLs(t *testing.T) {
	h, id := deployWebApp(t, webAppCode)
	path := "/v1/projects/" + SeedScriptID + "/deployments/" + id
	if got := js(get(mustCall(t, h, "GET", path, ""), "entryPoints", 0, "webApp", "url")); got != `"https://script.google.com/macros/s/`+id+`/exec"` {
		t.Errorf("without an address: got %s", got)
	}
	for _, tt := range []struct{ proto, want string }{{"http", "http://127.0.0.1:8128/sandbox/script/macros/s/" + id + "/exec"},
		{"https", "https://127.0.0.1:8128/sandbox/script/macros/s/" + id + "/exec"}} {
		r := httptest.NewRequest("GET", path, nil)
		r.Header.Set("Authorization", "Bearer "+sandbox.DefaultKey)
		r.Header.Set("X-Forwarded-Host", "127.0.0.1:8128")
		r.Header.Set("X-Forwarded-Proto", tt.proto)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if !strings.Contains(w.Body.String(), `"url":"`+tt.want+`"`) {
			t.Errorf("%s: got %s; want the URL %s", tt.proto, w.Body, tt.want)
		}
	}
	head := mustCall(t, h, "GET", "/v1/projects/"+SeedScriptID+"/deployments/"+SeedHeadDeploymentID, "")
	if got := js(get(head, "entryPoints", 0, "webApp", "url")); !strings.HasSuffix(got, `/dev"`) {
		t.Errorf("HEAD's web app: got %s; want its /dev URL", got)
	}
	if w := fetch(h, "GET", "/macros/s/"+SeedHeadDeploymentID+"/dev?page=json&name=dev", ""); w.Code != 200 || !strings.Contains(w.Body.String(), `"hello":"dev"`) {
		t.Errorf("the /dev web app: got %d %s", w.Code, w.Body)
	}
}
