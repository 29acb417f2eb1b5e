package config

import (
	"context"
	"maps"
	"os"
	"slices"
	"strconv"
	"time"
)

// Files lists the files the configuration was read from: the configuration file, the
// credential files, the OpenAPI documents of your own APIs, the users file and the walkthroughs'
// documents and folders. A change to any of them calls for a reload.
func (c *Config) Files() []string {
	var out []string
	if c.Path != "" {
		out = append(out, c.Path)
	}
	for _, slug := range slices.Sorted(maps.Keys(c.APIs)) {
		if a := c.APIs[slug]; a != nil && a.Credential.File != "" {
			out = append(out, a.Credential.File)
		}
		if a := c.APIs[slug]; a != nil {
			for _, scheme := range slices.Sorted(maps.Keys(a.Credentials)) {
				if cr := a.Credentials[scheme]; cr != nil && cr.File != "" {
					out = append(out, cr.File)
				}
			}
		}
		if a := c.APIs[slug]; a != nil && a.OpenAPI != "" {
			out = append(out, a.OpenAPI) // a change is reported: it takes a restart
		}
	}
	if c.Server.Access.UsersFile != "" {
		out = append(out, c.Server.Access.UsersFile)
	}
	return append(out, c.walkthroughWatch()...)
}

// Watch calls onChange when a file of files() changes (its size or modification time, or it
// appears or disappears), checking every interval until ctx is done. Polling needs no
// platform support and sees a secret file replaced by a rename, as Kubernetes does it.
func Watch(ctx context.Context, interval time.Duration, files func() []string, onChange func()) {
	snapshot := func() map[string]string {
		m := map[string]string{}
		for _, f := range files() {
			st, err := os.Stat(f)
			if err != nil {
				m[f] = "missing"
				continue
			}
			m[f] = st.ModTime().String() + "/" + strconv.FormatInt(st.Size(), 10)
		}
		return m
	}
	last := snapshot()
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			now := snapshot()
			if !sameSnapshot(last, now) {
				onChange()
				now = snapshot() // the files onChange loaded may differ
			}
			last = now
		}
	}
}

func sameSnapshot(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
