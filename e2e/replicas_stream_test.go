package e2e

import (
	"net/netip"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// replicaChatPace is the chat model's pace in the stream test: its answer ("a counter", about
// 1,600 tokens) streams for about 6 s, long enough to find the replica sending it and kill it
// mid-way on a loaded machine, short enough to wait for the answer sent again.
const replicaChatPace = 250

// TestReplicasChatStreamCutBySendAgain is issue 35's stream case: three replicas behind nginx;
// a browser asks the chat for an answer; the replica sending it is found (the one whose
// connection from nginx is sending) and killed with SIGKILL mid-answer. The turn ends at once
// with the cut explained, what arrived kept and Send again; pressed, the same conversation is
// answered in full by another replica, and the conversation holds the question once and one
// answer.
func TestReplicasChatStreamCutBySendAgain(t *testing.T) {
	rs := startReplicas(t, replicaOptions{ChatPace: replicaChatPace})
	ctx := openChat(t, rs.front)
	const question = "a counter"
	chatAsk(t, ctx, question)
	if _, err := chromedp.Run(within(t, ctx, 30*time.Second), chromedp.Poll[bool](lastAnswerText+`.length >= 20 || null`,
		chromedp.WithPollingInterval(20*time.Millisecond))); err != nil {
		t.Fatalf("the answer did not start: %v", err)
	}
	serving := rs.streamingReplica(10 * time.Second)
	shown := chatEval[int](t, ctx, lastAnswerText+`.length`)
	killed := time.Now()
	rs.kill(serving)
	msg := chatCutTurn(t, ctx, 30*time.Second)
	took := time.Since(killed)
	kept := chatEval[int](t, ctx, lastAnswerText+`.length`)
	t.Logf("replica %d killed after %d characters were shown; the turn ended %s later, %d characters kept: %q", serving, shown, took.Round(time.Millisecond), kept, msg)
	if !strings.Contains(msg, "Stream cut") || !strings.Contains(msg, "the connection broke") {
		t.Errorf("got %q; want the stream said cut, the connection broken", msg)
	}
	if kept < shown {
		t.Errorf("%d characters kept; want at least the %d shown before the replica died", kept, shown)
	}
	if took > 10*time.Second {
		t.Errorf("the turn ended %s after the replica died; want at once, not after a time-out", took)
	}
	if busy := chatEval[bool](t, ctx, `!document.getElementById("chat-stop").disabled`); busy {
		t.Error("Stop is still enabled: the chat still waits for the cut answer")
	}

	chatPressSendAgain(t, ctx)
	if again := rs.streamingReplica(10 * time.Second); again == serving {
		t.Errorf("the answer sent again streams from replica %d, the one killed", again)
	}
	chatWaitDone(t, ctx, 60*time.Second)
	chatCheckOneExchange(t, ctx, question)
}

// ssBytesSent and ssPid read a socket's bytes sent and owning process from ss's output.
var (
	ssBytesSent = regexp.MustCompile(`\bbytes_sent:(\d+)`)
	ssPid       = regexp.MustCompile(`\bpid=(\d+)`)
)

// ssBinary finds iproute2's ss: on PATH, else in /usr/sbin or /sbin (Debian's, off a user's
// PATH).
func ssBinary() string {
	if bin, err := exec.LookPath("ss"); err == nil {
		return bin
	}
	for _, bin := range []string{"/usr/sbin/ss", "/sbin/ss"} {
		if _, err := os.Stat(bin); err == nil {
			return bin
		}
	}
	return "ss" // not installed: the run fails, naming it
}

// replicaSocket is an established connection on a replica's port, as ss reports it.
type replicaSocket struct {
	replica int
	sent    int64
}

// sockets lists the established TCP connections on the replicas' ports (nginx's to them) with
// their bytes sent (the kernel's tcp_info, through ss), by local and peer address. Each must
// belong to the process of the replica whose port it is on.
func (rs *replicaSet) sockets() map[string]replicaSocket {
	t := rs.t
	t.Helper()
	ports := map[uint16]int{}
	var filter []string
	for i, a := range rs.addrs {
		ap := netip.MustParseAddrPort(a)
		ports[ap.Port()] = i
		filter = append(filter, "sport = :"+strconv.Itoa(int(ap.Port())))
	}
	out, err := exec.Command(ssBinary(), "-tnpiH", "state", "established", "( "+strings.Join(filter, " or ")+" )").Output()
	if err != nil {
		t.Fatalf("ss (iproute2, which make deps installs): %v", err)
	}
	socks := map[string]replicaSocket{}
	var key string
	for _, line := range strings.Split(string(out), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		if line[0] != ' ' && line[0] != '\t' { // a socket; its details follow, indented
			key = ""
			var addrs []netip.AddrPort
			for _, f := range strings.Fields(line) {
				if ap, err := netip.ParseAddrPort(f); err == nil {
					addrs = append(addrs, ap)
				}
			}
			if len(addrs) != 2 {
				continue
			}
			i, ok := ports[addrs[0].Port()]
			if !ok {
				continue
			}
			if m := ssPid.FindStringSubmatch(line); m == nil || m[1] != strconv.Itoa(rs.cmds[i].Process.Pid) {
				t.Fatalf("a connection on replica %d's port is not its process's (pid %d): %s", i, rs.cmds[i].Process.Pid, line)
			}
			key = addrs[0].String() + " " + addrs[1].String()
			socks[key] = replicaSocket{replica: i}
			continue
		}
		if m := ssBytesSent.FindStringSubmatch(line); key != "" && m != nil {
			s := socks[key]
			s.sent, _ = strconv.ParseInt(m[1], 10, 64)
			socks[key] = s
		}
	}
	return socks
}

// streamingReplica finds the replica sending the stream under way: of nginx's connections to
// the replicas, the one whose bytes sent grew in each of two windows of 150 ms (an idle
// keep-alive connection sends nothing). It fails the test unless exactly one is found within d.
func (rs *replicaSet) streamingReplica(d time.Duration) int {
	t := rs.t
	t.Helper()
	deadline := time.Now().Add(d)
	var last []string
	for time.Now().Before(deadline) {
		s1 := rs.sockets()
		time.Sleep(150 * time.Millisecond)
		s2 := rs.sockets()
		time.Sleep(150 * time.Millisecond)
		s3 := rs.sockets()
		last = last[:0]
		found := -1
		for key, c := range s3 {
			a, ok1 := s1[key]
			b, ok2 := s2[key]
			if ok1 && ok2 && a.sent < b.sent && b.sent < c.sent {
				last = append(last, key)
				found = c.replica
			}
		}
		if len(last) == 1 {
			return found
		}
	}
	t.Fatalf("no single connection of a replica kept sending for 300 ms within %s (sending: %v)", d, last)
	return -1
}
