package worker

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"loupe/server/sandbox/script/engine"
)

// The server and a worker talk over the worker's stdin and stdout in frames: a 4-byte
// big-endian length, then that many bytes of JSON. The server sends a job, the worker answers
// with its result; meanwhile the worker sends its log lines and asks for the user's state
// (load, commit, lock, unlock), each request answered before the next.

// Frame kinds.
const (
	kindJob      = "job"    // server → worker: run Job
	kindResult   = "result" // worker → server: Result, the job is over
	kindLog      = "log"    // worker → server: Lines were logged
	kindLoad     = "load"   // worker → server: the document Key; answered by kindLoaded
	kindLoaded   = "loaded" // server → worker: Doc (absent: none) or Err
	kindCommit   = "commit" // worker → server: store Changes; answered by kindDone
	kindLock     = "lock"   // worker → server: take the lock Scope, waiting Wait; answered by kindLocked
	kindLocked   = "locked" // server → worker: OK or Err
	kindUnlock   = "unlock" // worker → server: release the lock Scope; answered by kindDone
	kindDone     = "done"   // server → worker: the request is done (Err when it failed)
	maxJobFrame  = 64 << 20 // what a worker reads: the project's files and libraries
	frameHeader  = 4        // bytes of the length
	frameSlack   = 1 << 20  // room for a frame's JSON around its payload
	minFrameSize = 16 << 20 // the least any frame may be (commits of a session's documents)
)

// frame is one message; Kind says which fields it uses.
type frame struct {
	Kind    string          `json:"k"`
	Job     *engine.Job     `json:"job,omitempty"`
	Result  *engine.Result  `json:"result,omitempty"`
	Lines   []string        `json:"lines,omitempty"`
	Key     string          `json:"key,omitempty"`
	Doc     json.RawMessage `json:"doc,omitempty"`
	Changes []engine.Change `json:"changes,omitempty"`
	Scope   string          `json:"scope,omitempty"`
	Wait    time.Duration   `json:"wait,omitempty"`
	OK      bool            `json:"ok,omitempty"`
	Err     string          `json:"err,omitempty"`
}

// errTooLarge is reading a frame longer than the reader accepts.
type errTooLarge struct{ n, max int }

func (e errTooLarge) Error() string {
	return fmt.Sprintf("a frame of %d bytes is larger than the %d accepted", e.n, e.max)
}

// writeFrame encodes f to w.
func writeFrame(w io.Writer, f *frame) error {
	b, err := json.Marshal(f)
	if err != nil {
		return fmt.Errorf("encoding a %s frame: %w", f.Kind, err)
	}
	buf := make([]byte, frameHeader, frameHeader+len(b))
	binary.BigEndian.PutUint32(buf, uint32(len(b)))
	if _, err := w.Write(append(buf, b...)); err != nil {
		return fmt.Errorf("writing a %s frame: %w", f.Kind, err)
	}
	return nil
}

// readFrame decodes the next frame of r, refusing one longer than max bytes before reading it.
func readFrame(r io.Reader, max int) (*frame, error) {
	var head [frameHeader]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		return nil, err
	}
	n := int(binary.BigEndian.Uint32(head[:]))
	if n > max {
		return nil, errTooLarge{n, max}
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(r, b); err != nil {
		return nil, fmt.Errorf("reading a frame of %d bytes: %w", n, err)
	}
	var f frame
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("decoding a frame: %w", err)
	}
	return &f, nil
}
