package drf

import "testing"

func TestPyInt(t *testing.T) {
	tests := []struct {
		in      string
		want    int
		wantErr bool
	}{
		{"3", 3, false}, {" 3 ", 3, false}, {"+3", 3, false}, {"-3", -3, false}, {"007", 7, false},
		{"1_000", 1000, false}, {"99999999999999999999999", MaxInt, false},
		{"", 0, true}, {"-", 0, true}, {"3.0", 0, true}, {"1e3", 0, true}, {"_1", 0, true}, {"1_", 0, true},
		{"1__0", 0, true}, {"0x10", 0, true},
	}
	for _, tt := range tests {
		got, err := PyInt(tt.in)
		if got != tt.want || (err != nil) != tt.wantErr {
			t.Errorf("PyInt(%q): got %d, %v; want %d, error %v", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
}
