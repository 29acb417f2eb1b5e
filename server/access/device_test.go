package access

import (
	"bytes"
	"net/http/httptest"
	"testing"
)

// TestDeviceKeyShared: a device cookie signed by one gate is known to another with the same
// DeviceKey (a replica, or the same server after a restart), not to one with another key.
func TestDeviceKeyShared(t *testing.T) {
	key := bytes.Repeat([]byte{9}, 32)
	cookie := newDevices(key).cookie("alice", false)
	for _, tt := range []struct {
		name string
		d    *devices
		user string
		want bool
	}{
		{"same key", newDevices(bytes.Clone(key)), "alice", true},
		{"same key, another user", newDevices(key), "bob", false},
		{"another key", newDevices(bytes.Repeat([]byte{8}, 32)), "alice", false},
		{"a key made at start", newDevices(nil), "alice", false},
	} {
		r := httptest.NewRequest("POST", "/login", nil)
		r.AddCookie(cookie)
		if got := tt.d.of(r, tt.user) != ""; got != tt.want {
			t.Errorf("%s: got known %v; want %v", tt.name, got, tt.want)
		}
	}
}
