package script

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestFmtDuration(t *testing.T) {
	for _, tt := range []struct {
		d    time.Duration
		want string
	}{
		{0, "0s"},
		{time.Second, "1s"},
		{1500 * time.Millisecond, "1.5s"},
		{time.Microsecond, "0.000001s"},
		{time.Nanosecond, "0.000000001s"},
		{83*time.Second + 123456789, "83.123456789s"},
		{-250 * time.Millisecond, "-0.25s"},
		{-2 * time.Second, "-2s"},
	} {
		if got := fmtDuration(tt.d); got != tt.want {
			t.Errorf("fmtDuration(%v) = %q; want %q", tt.d, got, tt.want)
		}
	}
}

// TestFmtDurationAgreesWithSeconds: for durations a script run can take, fmtDuration writes
// what formatting the duration's seconds to nine decimals and trimming writes.
func TestFmtDurationAgreesWithSeconds(t *testing.T) {
	for d := time.Duration(0); d < 400*time.Second; d = d*3 + 7777 {
		want := strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.9f", d.Seconds()), "0"), ".") + "s"
		if got := fmtDuration(d); got != want {
			t.Errorf("fmtDuration(%d ns) = %q; want %q", int64(d), got, want)
		}
	}
}
