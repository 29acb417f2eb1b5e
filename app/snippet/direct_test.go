package snippet

import (
	"os/exec"
	"strings"
	"testing"

	"loupe/app/fetch"
	"loupe/app/request"
)

func TestCurlDirect(t *testing.T) {
	search := &request.Request{Method: "GET", URL: "/proxy/entities/v1/entities:search?query=it%27s"}
	key := []Credential{{In: "query", Name: "key", Value: HeldValue}}
	chat := &request.Request{Method: "POST", URL: "/proxy/chat/v1/chat/completions",
		Headers: []fetch.Header{{Name: "Content-Type", Value: "application/json"}}, Body: []byte(`{"m":"$x"}`)}
	bearer := []Credential{{In: "header", Name: "Authorization", Value: "Bearer " + HeldValue}}
	for _, tc := range []struct {
		name string
		d    Direct
		req  *request.Request
		held []Credential
		want string
	}{
		{"sandbox: the key goes in the query from a variable",
			Direct{BaseURL: "https://kgsearch.googleapis.com/", Prefix: "/proxy/entities", Slug: "entities", InBrowser: true}, search, key,
			"# On this static site the built-in sandbox answers this request inside your browser; it is not sent over the network.\n" +
				"# The same request to the real API; set ENTITIES_API_KEY to your credential first (the key typed in this tab is never copied into a snippet):\n" +
				`curl 'https://kgsearch.googleapis.com/v1/entities:search?query=it%27s&key='"${ENTITIES_API_KEY}"`},
		{"real API: a bearer token in a header, the body as typed",
			Direct{BaseURL: "https://api.v0.dev", Prefix: "/proxy/chat", Slug: "chat"}, chat, bearer,
			"# The page sends this request from your browser straight to the real API; set CHAT_TOKEN to your credential first (the key typed in this tab is never copied into a snippet):\n" +
				"curl -X POST https://api.v0.dev/v1/chat/completions \\\n" +
				"  -H 'Content-Type: application/json' \\\n" +
				"  -H 'Authorization: Bearer '\"${CHAT_TOKEN}\" \\\n" +
				`  --data-raw '{"m":"$x"}'`},
		{"an API without a credential names no variable",
			Direct{BaseURL: "https://readthedocs.org", Prefix: "/proxy/docs", Slug: "docs", InBrowser: true},
			&request.Request{URL: "/proxy/docs/api/v3/projects/?limit=2"}, nil,
			"# On this static site the built-in sandbox answers this request inside your browser; it is not sent over the network.\n" +
				"# The same request to the real API:\n" +
				"curl 'https://readthedocs.org/api/v3/projects/?limit=2'"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := CurlDirect(tc.d, tc.req, tc.held)
			if got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
			if strings.Contains(got, "/proxy") || strings.Contains(got, HeldValue) {
				t.Errorf("got %s; want no /proxy and no held placeholder", got)
			}
		})
	}
}

func TestKeyVar(t *testing.T) {
	for _, tc := range []struct {
		slug string
		c    Credential
		want string
	}{
		{"entities", Credential{In: "query", Name: "key", Value: HeldValue}, "ENTITIES_API_KEY"},
		{"script", Credential{In: "header", Name: "Authorization", Value: "Bearer " + HeldValue}, "SCRIPT_TOKEN"},
		{"my-api", Credential{In: "header", Name: "Authorization", Value: "Basic " + HeldValue}, "MY_API_BASIC_AUTH"},
	} {
		if got := KeyVar(tc.slug, tc.c); got != tc.want {
			t.Errorf("KeyVar(%s, %s): got %s; want %s", tc.slug, tc.c, got, tc.want)
		}
	}
}

// TestQuoteVarsInAShell checks that the shell puts the variable in and takes the rest as is.
func TestQuoteVarsInAShell(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Fatalf("the shell test needs sh: %v", err)
	}
	s := "https://h/x?a=\"q\"&b=$HOME&c=`id`&d=\\&key=" + varMark + "LOUPE_T" + varMark
	cmd := exec.Command(sh, "-c", "printf %s "+quoteVars(s))
	cmd.Env = []string{"LOUPE_T=s3cr3t", "HOME=/nope"}
	out, err := cmd.Output()
	want := "https://h/x?a=\"q\"&b=$HOME&c=`id`&d=\\&key=s3cr3t"
	if err != nil || string(out) != want {
		t.Errorf("sh printed %q (%v); want %q", out, err, want)
	}
}

// TestQuotingInAnInteractiveBash: what a user pastes into an interactive bash comes out as
// written: history expansion (!), parameters ($), commands (` and $()) and globs expand
// nothing, in Quote's single quotes and in quoteVars' text around a variable, on one line or
// several.
func TestQuotingInAnInteractiveBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatalf("the interactive shell test needs bash: %v", err)
	}
	values := []string{"hi!", "a!echo b", "!!", "x!-1", "!first $HOME `id` $(id) ${PATH} *", "it's!\nsecond!line", `\!\$`}
	var script strings.Builder
	script.WriteString("echo first\n") // an event for !first and !! to find
	var want []string
	for _, v := range values {
		script.WriteString("printf '[%s]\\n' " + Quote(v) + "\n")
		want = append(want, "["+v+"]")
		script.WriteString("printf '[%s]\\n' " + quoteVars("https://h/x?q="+v+"&key="+varMark+"LOUPE_T"+varMark+"&z="+v) + "\n")
		want = append(want, "[https://h/x?q="+v+"&key=s3cr3t&z="+v+"]")
	}
	cmd := exec.Command(bash, "--norc", "--noprofile", "-i")
	cmd.Stdin = strings.NewReader(script.String())
	cmd.Env = []string{"LOUPE_T=s3cr3t", "HOME=/nope", "PS1=", "PS2=", "TERM=dumb"}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("bash -i: %v", err)
	}
	got := strings.Split(strings.TrimSpace(strings.SplitN(string(out), "first\n", 2)[1]), "\n")
	joined := strings.Join(got, "\n")
	if joined != strings.Join(want, "\n") {
		t.Errorf("bash -i printed\n%s\nwant\n%s", joined, strings.Join(want, "\n"))
	}
}
