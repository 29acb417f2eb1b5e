package worker

import "syscall"

// procAttr makes a worker die with the server (SIGKILL when the server goes).
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
