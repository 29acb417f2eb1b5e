package config

import (
	"net/http"
	"reflect"
	"testing"
)

// TestCredentialApply: each way of sending a credential sets what Header.Set, the cookie and
// the query writers would, replacing a value the request already had.
func TestCredentialApply(t *testing.T) {
	tests := []struct {
		cred       Credential
		wantHeader http.Header
		wantQuery  string
	}{
		{Credential{Send: SendBearer, secret: "s3cr3t"}, http.Header{"Authorization": {"Bearer s3cr3t"}, "Accept": {"*/*"}}, "q=1"},
		{Credential{Send: SendHeader, Name: "x-api-key", secret: "s3cr3t"}, http.Header{"X-Api-Key": {"s3cr3t"}, "Authorization": {"Bearer browser"}, "Accept": {"*/*"}}, "q=1"},
		{Credential{Send: SendHeader, Name: "Authorization", Prefix: "Token ", secret: "s3cr3t"}, http.Header{"Authorization": {"Token s3cr3t"}, "Accept": {"*/*"}}, "q=1"},
		{Credential{Send: SendBasic, secret: "elastic:pw"}, http.Header{"Authorization": {"Basic ZWxhc3RpYzpwdw=="}, "Accept": {"*/*"}}, "q=1"},
		{Credential{Send: SendCookie, Name: "sid", secret: "s3cr3t"}, http.Header{"Authorization": {"Bearer browser"}, "Accept": {"*/*"}, "Cookie": {"a=1; sid=s3cr3t"}}, "q=1"},
		{Credential{Send: SendQuery, Name: "key", secret: "s 3"}, http.Header{"Authorization": {"Bearer browser"}, "Accept": {"*/*"}}, "q=1&key=s+3"},
	}
	for _, tt := range tests {
		r, _ := http.NewRequest("GET", "http://api.example/v1?q=1&key=old", nil)
		r.Header = http.Header{"Authorization": {"Bearer browser"}, "Accept": {"*/*"}, "Cookie": {"a=1; sid=old"}}
		if tt.cred.Send != SendCookie {
			delete(r.Header, "Cookie")
		}
		if tt.cred.Send != SendQuery {
			r.URL.RawQuery = "q=1"
		}
		tt.cred.Apply()(r)
		if !reflect.DeepEqual(r.Header, tt.wantHeader) || r.URL.RawQuery != tt.wantQuery {
			t.Errorf("send %s: got %v ?%s; want %v ?%s", tt.cred.Send, r.Header, r.URL.RawQuery, tt.wantHeader, tt.wantQuery)
		}
	}
	if f := (&Credential{Send: SendNone, secret: "s"}).Apply(); f != nil {
		t.Error("send none: got a function; want nil")
	}
}
