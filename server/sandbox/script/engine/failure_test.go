package engine

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestFailuresAsV8 checks errors and stacks as V8 (and so Apps Script) reports them: an Error
// subclass's stack starts where new was said, a constructor deeper in the stack is "new Name",
// and the call depth is V8's.
func TestFailuresAsV8(t *testing.T) {
	src := `class QuotaError extends Error {
  constructor(message) {
    super(message);
    this.name = 'QuotaError';
  }
}
class Strict extends QuotaError {}
class Invoice {
  constructor(n) {
    this.n = check(n);
  }
}
function check(n) {
  if (n < 0) throw new RangeError('negative: ' + n);
  return n;
}
function subclass() {
  throw new Strict('over');
}
function inConstructor() {
  return new Invoice(-1);
}
function recurse(n) {
  return n === 0 ? 0 : 1 + recurse(n - 1);
}
function names() {
  return [new Strict('x').name, Strict.name, new Strict('x') instanceof QuotaError, new Strict('x') instanceof Error];
}
`
	for _, c := range []struct{ fn, args, want string }{
		{"subclass", ``, `QuotaError: over @ subclass:18`},
		{"inConstructor", ``, `RangeError: negative: -1 @ check:14 new Invoice:10 inConstructor:21`},
		{"recurse", `11000`, `11000`},
		{"recurse", `13000`, `RangeError: Maximum call stack size exceeded @ recurse:24 recurse:24 recurse:24 recurse:24 recurse:24 recurse:24 recurse:24 recurse:24 recurse:24 recurse:24`},
		{"names", ``, `["QuotaError","Strict",true,true]`},
	} {
		var args []string
		if c.args != "" {
			args = append(args, c.args)
		}
		r := runJS(t, newMemHost(), "UTC", src, c.fn, args...)
		got := outcome(r)
		if r.Fail != nil && len(r.Fail.Stack) > 0 {
			var fs []string
			for _, f := range r.Fail.Stack {
				fs = append(fs, f.Function+":"+itoa(f.LineNumber))
			}
			got += " @ " + strings.Join(fs, " ")
		}
		if got != c.want {
			t.Errorf("%s(%s):\n got %s\nwant %s", c.fn, c.args, got, c.want)
		}
	}
}

// TestServicesNotOffered checks that a service the sandbox does not emulate says so by name,
// as a ReferenceError, and that a script may still define a global of that name.
func TestServicesNotOffered(t *testing.T) {
	src := `function fetch() { return UrlFetchApp.fetch('https://example.com'); }
function mail() { MailApp.sendEmail('a@b.c', 's', 'b'); }
function intl() { return new Intl.NumberFormat().format(1); }
var DriveApp = {getFiles: function () { return 'mine'; }};
function own() { return DriveApp.getFiles(); }
`
	for fn, want := range map[string]string{
		"fetch": "ReferenceError: UrlFetchApp is not offered by the Loupe sandbox, which emulates Logger, console, Utilities, Session, PropertiesService, CacheService, LockService, ContentService, HtmlService and SpreadsheetApp; run this script in Apps Script to use UrlFetchApp.",
		"mail":  "ReferenceError: MailApp is not offered by the Loupe sandbox",
		"intl":  "ReferenceError: Intl is not offered by the Loupe sandbox's JavaScript engine: format dates with Utilities.formatDate.",
		"own":   `"mine"`,
	} {
		if got := outcome(runJS(t, newMemHost(), "UTC", src, fn)); !strings.HasPrefix(got, want) {
			t.Errorf("%s: got %s; want %s", fn, got, want)
		}
	}
}

// TestLimitBeforeTheCode checks that a limit met while the sandbox's services are still being
// set up (a run whose caller left at once, or a time limit on a loaded machine) ends the run
// with that limit, as one met in the user's code does, never as services that did not start.
func TestLimitBeforeTheCode(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	job := Job{Files: []File{{Name: "Code", Type: "SERVER_JS", Source: `function f() { return 1; }`}}, Function: "f",
		Limits: Limits{Timeout: 2 * time.Second}}
	// The interrupt lands during the services' setup, in the code, or after a quick run ended
	// (then the run succeeded).
	for range 20 {
		r := RunWith(ctx, job, newMemHost(), nil)
		if r.Fail != nil && (r.Fail.Limit != LimitClient || r.Fail.Message != errRunCancelled.Error()) {
			t.Fatalf("a run whose caller left: got %+v; want the client limit, or its result", r.Fail)
		}
	}
}
