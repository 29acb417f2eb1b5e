package proxy

import "testing"

// TestDropParams: the browser's credential parameters are dropped whatever their escaping, and
// every other pair is kept as it was written, in its order.
func TestDropParams(t *testing.T) {
	drop := set([]string{"key", "access_token", "api key"})
	tests := []struct{ in, want string }{
		{"", ""},
		{"q=1&page=2", "q=1&page=2"},
		{"key=abc", ""},
		{"q=1&key=abc&page=2", "q=1&page=2"},
		{"k%65y=abc&q=%2F", "q=%2F"},                   // an escaped name is the same name
		{"api+key=1&api%20key=2&apikey=3", "apikey=3"}, // '+' is a space in a form
		{"key&q=1", "q=1"},                             // a name without a value
		{"keys=1&monkey=2&key2=3", "keys=1&monkey=2&key2=3"},
		{"%zz=1&key=2", "%zz=1"}, // a name that does not unescape is kept, as before
		{"&&key=1&", "&&"},
		{"q=key&access_token=t&access_token=u", "q=key"},
	}
	for _, tt := range tests {
		if got := dropParams(tt.in, drop); got != tt.want {
			t.Errorf("dropParams(%q): got %q; want %q", tt.in, got, tt.want)
		}
	}
}
