package op

import "testing"

func TestAtPointer(t *testing.T) {
	doc := map[string]any{"messages": []any{map[string]any{"content": "hi", "n": 2.0}}, "a/b": "slash"}
	for _, tc := range []struct {
		ptr, want string
		ok        bool
	}{
		{"/messages/0/content", "hi", true},
		{"/messages/0/n", "2", true},
		{"/a~1b", "slash", true},
		{"/messages/1/content", "", false},
		{"/messages/x", "", false},
		{"/missing", "", false},
	} {
		if got, ok := AtPointer(doc, tc.ptr); got != tc.want || ok != tc.ok {
			t.Errorf("AtPointer(%s): got %q, %v; want %q, %v", tc.ptr, got, ok, tc.want, tc.ok)
		}
	}
}
