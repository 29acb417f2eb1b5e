//go:build !linux

package worker

import "syscall"

// procAttr has nothing to add on this system: a worker ends when its stdin closes.
func procAttr() *syscall.SysProcAttr { return nil }
