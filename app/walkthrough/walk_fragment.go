package walkthrough

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"io"
	"net/url"
	"sort"
	"strings"
)

// This file keeps a run's progress in the URL fragment (never sent to a server), so that a
// half-done walkthrough is a link: the workflow picked, the inputs typed, and the run's state
// as the service last gave it (compressed: it holds the outputs of the steps run and the last
// answer), with the next step's id to read.

// maxState bounds a run's state read from a link, once inflated.
const maxState = 8 << 20

// fragmentText encodes the progress.
func (p *walkthroughPage) fragmentText() string {
	v := url.Values{}
	if p.workflow != "" {
		v.Set("wf", p.workflow)
	}
	for k, val := range p.inputs {
		if val != "" {
			v.Set("in."+k, val)
		}
	}
	r := &p.run
	if r.sent() && len(r.state) > 0 {
		switch {
		case r.call != nil:
			v.Set("step", r.call.Step)
		case r.finished:
			v.Set("step", "done")
		}
		v.Set("run", deflate(r.state))
	}
	return "#" + v.Encode()
}

// readFragment restores the workflow and inputs from a fragment and returns the run's state it
// holds (nil for none), with a notice when it cannot be read.
func (p *walkthroughPage) readFragment(frag string) (notice string, state []byte) {
	p.workflow, p.inputs = "", map[string]string{}
	if strings.TrimPrefix(frag, "#") == "" {
		return "", nil
	}
	v, err := url.ParseQuery(strings.TrimPrefix(frag, "#"))
	if err != nil {
		return "This link's progress could not be read; the walkthrough starts at its first step.", nil
	}
	if wf := v.Get("wf"); wf != "" {
		if p.Walk.Workflow(wf) == nil || p.Walk.Workflow(wf).ID != wf {
			return "This walkthrough has no workflow “" + wf + "”; it starts with its first.", nil
		}
		p.workflow = wf
	}
	keys := make([]string, 0, len(v))
	for k := range v {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if name, ok := strings.CutPrefix(k, "in."); ok {
			p.inputs[name] = v.Get(k)
		}
	}
	if raw := v.Get("run"); raw != "" {
		st, err := inflate(raw)
		if err != nil {
			return "This link's progress could not be read; the walkthrough starts at its first step.", nil
		}
		return "", st
	}
	return "", nil
}

// deflate compresses a state for a URL: DEFLATE, then base64url without padding.
func deflate(b []byte) string {
	var buf bytes.Buffer
	w, _ := flate.NewWriter(&buf, flate.BestCompression) // never fails with a valid level
	w.Write(b)
	w.Close()
	return base64.RawURLEncoding.EncodeToString(buf.Bytes())
}

// inflate reverses deflate.
func inflate(s string) ([]byte, error) {
	z, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return nil, err
	}
	return io.ReadAll(io.LimitReader(flate.NewReader(bytes.NewReader(z)), maxState))
}
