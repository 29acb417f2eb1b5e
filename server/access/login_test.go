package access

import (
	"net/url"
	"testing"
)

// TestLocalPathRefusesTricks: a return path that a browser (or its form rules, which drop tabs
// and newlines) could read as another host becomes "/".
func TestLocalPathRefusesTricks(t *testing.T) {
	for _, in := range []string{
		"/\t/evil.example", "/\n/evil.example", "/\r/evil.example", "\t//evil.example", "/\x00/evil.example",
		"/\x0b/evil.example", "/\x7f/evil.example", "/%09/evil.example", "/%2f/evil.example", "/%5c/evil.example",
		"/\\/evil.example", "/ /evil.example", "//evil.example", "https://evil.example/", "/\u3000/evil.example",
		"/\u2028/evil.example", "", "evil.example", "/..//evil.example", "/./\\evil.example",
	} {
		got := localPath(in)
		if got != "/" {
			u, err := url.Parse("http://loupe.test" + got)
			if err != nil || u.Host != "loupe.test" {
				t.Errorf("localPath(%q): got %q, which leaves the host", in, got)
			} else {
				t.Errorf("localPath(%q): got %q; want / (a control, space or encoded separator)", in, got)
			}
		}
	}
	for _, in := range []string{"/", "/api/chat", "/api/chat/op/createChatCompletion?x=1&y=%20", "/guides/getting-started#top"} {
		if got := localPath(in); got != in {
			t.Errorf("localPath(%q): got %q; want it kept", in, got)
		}
	}
}
