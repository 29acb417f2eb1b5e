package cluster

import (
	"context"
	"io"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/fetch"
	"loupe/app/op"
	"loupe/app/ui"
)

// The cluster picture's refresh intervals: quick while the cluster moves or a call of the
// page is pending (a wait returns the moment the last replica starts), slow otherwise.
const (
	pictureFast = 250 * time.Millisecond
	pictureSlow = 2 * time.Second
)

func init() {
	op.AddSidePanel("cluster", func(api *catalog.API, op *catalog.Operation, sending bool) app.UI {
		for _, t := range op.Tags {
			switch t {
			case "cluster", "sandbox":
				return newClusterPicture(sending)
			case "security":
				return newUpgradeFlow()
			}
		}
		return nil
	})
}

// clusterPicture draws the cluster sandbox's shards (nodes as columns, indices as rows, a cell
// per copy coloured by its shard's health) with the status and counters, and the controls that
// inject faults. It reads GET /_sandbox/state and calls the other sandbox-only operations
// through the proxy, which lets them through only to the built-in sandbox.
type clusterPicture struct {
	app.Compo

	// Sending says a call of the page is pending: the picture refreshes quickly meanwhile.
	Sending bool

	state   *clusterState
	err     string // why the state could not be read
	action  string // the control call in flight, for the status line
	result  string // what the last control call answered, when it failed
	newName string
	shards  string
	reps    string
	index   string // the index the index controls act on
	cancel  context.CancelFunc
	wake    chan struct{} // refresh now
}

func newClusterPicture(sending bool) *clusterPicture {
	return &clusterPicture{Sending: sending}
}

// OnMount starts refreshing.
func (c *clusterPicture) OnMount(ctx app.Context) {
	cctx, cancel := context.WithCancel(context.Background())
	c.cancel, c.wake = cancel, make(chan struct{}, 1)
	c.newName, c.shards, c.reps = "events", "2", "1"
	wake := c.wake
	ctx.Async(func() { c.refreshLoop(ctx, cctx, wake) })
}

// OnDismount stops refreshing.
func (c *clusterPicture) OnDismount() {
	if c.cancel != nil {
		c.cancel()
	}
}

// refreshLoop reads the state, then again after an interval that depends on whether the
// cluster moves or a call is pending, or at once when woken, until the picture goes.
func (c *clusterPicture) refreshLoop(ctx app.Context, cctx context.Context, wake chan struct{}) {
	for cctx.Err() == nil {
		body, status, err := sandboxFetch(cctx, "GET", "state", "")
		fast := false
		ctx.Dispatch(func(app.Context) {
			switch {
			case err != nil:
				c.err = "The picture could not reach the cluster: " + err.Error()
			case status != 200:
				c.err = "The picture needs Loupe's built-in sandbox: " + ui.ErrorText(body, status)
			default:
				s, perr := parseClusterState(body)
				if perr != nil {
					c.err = perr.Error()
					break
				}
				c.state, c.err = s, ""
				if c.index == "" && len(s.Indices) > 0 {
					c.index = s.Indices[0].Name
				}
			}
		})
		// Read what decides the pace on the UI goroutine.
		paced := make(chan bool, 1)
		ctx.Dispatch(func(app.Context) { paced <- c.Sending || (c.state != nil && c.state.moving()) })
		select {
		case fast = <-paced:
		case <-cctx.Done():
			return
		}
		wait := pictureSlow
		if fast {
			wait = pictureFast
		}
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-wake:
			t.Stop()
		case <-cctx.Done():
			t.Stop()
			return
		}
	}
}

// OnUpdate refreshes at once when the page starts a call.
func (c *clusterPicture) OnUpdate(ctx app.Context) { c.refreshNow() }

// refreshNow wakes the refresh loop.
func (c *clusterPicture) refreshNow() {
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// control sends one sandbox-only call, then refreshes the picture.
func (c *clusterPicture) control(ctx app.Context, what, method, path, body string) {
	c.action, c.result = what, ""
	ctx.Async(func() {
		out, status, err := sandboxFetch(context.Background(), method, path, body)
		ctx.Dispatch(func(app.Context) {
			c.action = ""
			switch {
			case err != nil:
				c.result = what + " failed: " + err.Error()
			case status != 200:
				c.result = what + " failed: " + ui.ErrorText(out, status)
			}
			c.refreshNow()
		})
	})
}

// sandboxFetch calls a sandbox-only operation of the cluster through the proxy.
func sandboxFetch(ctx context.Context, method, path, body string) ([]byte, int, error) {
	req := fetch.Request{Method: method, URL: "/proxy/cluster/_sandbox/" + path}
	if body != "" {
		req.Body = []byte(body)
		req.Headers = []fetch.Header{{Name: "Content-Type", Value: "application/json"}}
	}
	res, err := fetch.Do(ctx, req)
	if err != nil {
		return nil, 0, err
	}
	defer res.Body.Close()
	out, err := io.ReadAll(io.LimitReader(res.Body, 4<<20))
	return out, res.Status, err
}
