package e2e

import (
	"bufio"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestAnUpstreamResetIsTheAPIsFault: an API that resets the connection right after its
// headers: the page shows Loupe's 502 naming the API and its address, not a failure of the
// link between the browser and Loupe.
func TestAnUpstreamResetIsTheAPIsFault(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				r := bufio.NewReader(c)
				for {
					line, err := r.ReadString('\n')
					if err != nil || line == "\r\n" {
						break
					}
				}
				io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n")
				c.(*net.TCPConn).SetLinger(0)
				c.Close()
			}()
		}
	}()
	base, _ := startBeaconServer(t, "apis:\n  entities:\n    base_url: http://"+l.Addr().String()+"\n    credential: {value: reset-SECRET-key}\n")
	ctx := newBrowser(t)
	openPage(t, ctx, base+"/entities/entities.search")
	tctx := within(t, ctx, 30*time.Second)
	if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID("send")), chromedp.WaitVisible(chromedp.ID("response-status"))); err != nil {
		t.Fatalf("sending: %v", err)
	}
	status, _ := chromedp.Run(tctx, chromedp.Text(chromedp.ID("response-status")))
	text, _ := chromedp.Run(tctx, chromedp.Text(chromedp.ID("response")))
	if !strings.HasPrefix(status, "502") || !strings.Contains(text, "entities") || !strings.Contains(text, l.Addr().String()) {
		t.Errorf("got status %q, panel %.400q; want Loupe's 502 naming entities and its address", status, text)
	}
	if strings.Contains(text, "could not get an answer from Loupe's server") {
		t.Errorf("the panel blames the link to Loupe: %.400q", text)
	}
}
