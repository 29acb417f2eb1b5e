//go:build js && wasm

package fetch

import (
	"syscall/js"
	"time"
)

// readSlice is the longest a body's reader goes on without giving the browser a turn. A Go
// wasm program returns to the browser only when every goroutine waits, and a stream whose
// chunks are already there never makes the reader wait for a new task: the whole answer
// would be read, parsed and rendered in one main-thread task, with no input handled and no
// frame painted. A slice well under 50 ms leaves room for the UI work done in the same task.
const readSlice = 8 * time.Millisecond

// nextTask waits for a new task of the browser's event loop, so the browser handles input and
// paints a frame that is due before the program goes on. It posts a message to itself on a
// MessageChannel, which runs as a task of its own without setTimeout's 4 ms clamp on nested
// timers (time.Sleep would be clamped after a few slices).
func nextTask() {
	ch := js.Global().Get("MessageChannel")
	if !ch.Truthy() {
		time.Sleep(time.Millisecond)
		return
	}
	mc := ch.New()
	port := mc.Get("port1")
	done := make(chan struct{})
	var onMessage js.Func
	onMessage = js.FuncOf(func(js.Value, []js.Value) any {
		onMessage.Release()
		close(done)
		return nil
	})
	port.Set("onmessage", onMessage)
	mc.Get("port2").Call("postMessage", js.Null())
	<-done
	port.Call("close")
}
