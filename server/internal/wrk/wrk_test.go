package wrk

import "testing"

func TestMillis(t *testing.T) {
	tests := []struct {
		in   string
		want float64
	}{
		{"850.00us", 0.85},
		{"8.09ms", 8.09},
		{"1.20s", 1200},
		{"12", 0},
		{"", 0},
	}
	for _, tt := range tests {
		if got := Millis(tt.in); got < tt.want-1e-9 || got > tt.want+1e-9 {
			t.Errorf("Millis(%q): got %v; want %v", tt.in, got, tt.want)
		}
	}
}
