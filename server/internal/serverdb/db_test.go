package serverdb

import (
	"testing"
	"time"
)

func TestSecondOpenRefused(t *testing.T) {
	defer func(d time.Duration) { lockTimeout = d }(lockTimeout)
	lockTimeout = 100 * time.Millisecond
	dir := t.TempDir()
	open(t, dir, time.Now())
	if _, err := Open(dir); err == nil {
		t.Error("a second Open of the same directory succeeded; want it refused while the first holds the file")
	}
}
