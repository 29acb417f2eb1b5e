package engine

import (
	"encoding/json"
	"testing"
	"time"
)

// TestContentService checks TextOutput against Apps Script's documentation: content, chaining,
// MIME types as the MimeType enum, downloadAsFile.
func TestContentService(t *testing.T) {
	runCases(t, newMemHost(), "UTC", []serviceCase{
		{"text output", `var o = ContentService.createTextOutput('a');
return [o.append('b') === o, o.getContent(), String(o.getMimeType()), o.getFileName(), String(o)];`, `[true,"ab","TEXT",null,"TextOutput"]`},
		{"mime type", `var o = ContentService.createTextOutput().setMimeType(ContentService.MimeType.JSON);
return [o.getMimeType() === ContentService.MimeType.JSON, String(o.getMimeType()), o.getContent()];`, `[true,"JSON",""]`},
		{"download", `return ContentService.createTextOutput('x').downloadAsFile('a.csv').getFileName();`, `"a.csv"`},
		{"bad mime type", `ContentService.createTextOutput('x').setMimeType('text/html');`,
			`Exception: The parameters (String) don't match the method signature for TextOutput.setMimeType.`},
	})
}

// TestHtmlService checks HtmlOutput and templates: content, title, escaping, scriptlets with the
// template's variables, files of the project, and the errors.
func TestHtmlService(t *testing.T) {
	host := newMemHost()
	job := func(body string) Job {
		return Job{Files: []File{
			{Name: "Code", Type: "SERVER_JS", Source: "function include(name) { return HtmlService.createHtmlOutputFromFile(name).getContent(); }\nfunction f() {\n" + body + "\n}\n"},
			{Name: "Index", Type: "HTML", Source: `<html><head><?!= include('Style'); ?></head><body><? for (var i = 0; i < items.length; i++) { ?><li><?= items[i] ?></li><? } ?></body></html>`},
			{Name: "Style", Type: "HTML", Source: `<style>li{color:red}</style>`},
		}, Function: "f", User: "a@b.c", ScriptID: "s", Limits: Limits{Timeout: 5 * time.Second}}
	}
	for _, c := range []serviceCase{
		{"output", `var o = HtmlService.createHtmlOutput('<b>hi</b>');
o.append('<i>!</i>').appendUntrusted('<script>x</script>');
return [o.getContent(), o.setTitle('T') === o, o.getTitle(), String(o)];`,
			`["<b>hi</b><i>!</i>&lt;script&gt;x&lt;/script&gt;",true,"T","HtmlOutput"]`},
		{"template from file", `var t = HtmlService.createTemplateFromFile('Index');
t.items = ['a', '<b>'];
return t.evaluate().getContent();`,
			`"<html><head><style>li{color:red}</style></head><body><li>a</li><li>&lt;b&gt;</li></body></html>"`},
		{"template string", `var t = HtmlService.createTemplate('<?= a + 1 ?>|<?!= "<br>" ?>');
t.a = 41;
return [t.evaluate().getContent(), t.getRawContent()];`, `["42|<br>","<?= a + 1 ?>|<?!= \"<br>\" ?>"]`},
		{"missing file", `HtmlService.createHtmlOutputFromFile('Nope');`, `Exception: No HTML file named Nope was found.`},
		{"meta tag", `return HtmlService.createHtmlOutput().addMetaTag('viewport', 'width=device-width').getMetaTags()[0].getContent();`, `"width=device-width"`},
		{"bad meta tag", `HtmlService.createHtmlOutput().addMetaTag('refresh', '0');`, `Exception: Invalid argument: name`},
	} {
		if got := outcome(Run(job(c.body), host)); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}

// TestWebAppOutput checks what a web app's doGet serves: its TextOutput or HtmlOutput, or the
// error Apps Script shows for another value.
func TestWebAppOutput(t *testing.T) {
	run := func(body string) Result {
		return Run(Job{Files: []File{{Name: "Code", Type: "SERVER_JS", Source: "function doGet(e) {\n" + body + "\n}\n"}},
			Function: "doGet", Args: []json.RawMessage{[]byte(`{"parameter":{"q":"x"}}`)}, WebApp: true, User: "a@b.c", ScriptID: "s",
			Limits: Limits{Timeout: 5 * time.Second, MaxResult: 100}}, newMemHost())
	}
	for _, c := range []struct{ body, want string }{
		{`return ContentService.createTextOutput(e.parameter.q).setMimeType(ContentService.MimeType.CSV);`, `{"kind":"text","mimeType":"text/csv","content":"x"}`},
		{`return HtmlService.createHtmlOutput('<p>' + e.parameter.q).setTitle('T');`, `{"kind":"html","mimeType":"text/html","content":"\u003cp\u003ex","title":"T"}`},
		{`return 'x';`, `ScriptError: The script completed but the returned value is not a supported return type.`},
		{`return ContentService.createTextOutput('y'.repeat(101));`, `ScriptError: Exceeded maximum output size: the script's output is 101 bytes; the sandbox returns at most 100 bytes.`},
	} {
		r := run(c.body)
		got := outcome(r)
		if r.Output != nil {
			got = js(r.Output)
		}
		if got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.body, got, c.want)
		}
	}
}
