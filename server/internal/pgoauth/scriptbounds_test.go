package pgoauth

import (
	"context"
	"fmt"
	"testing"
	"time"

	"loupe/server/internal/pgdb"
	"loupe/server/sandbox/script"
	"loupe/server/testenv/pgtest"
)

// twoReplicas returns two ScriptTokens on one new database, each on its own connection pool,
// as two replicas hold them.
func twoReplicas(t *testing.T) []*ScriptTokens {
	t.Helper()
	url := pgtest.DB(t)
	var out []*ScriptTokens
	for range 2 {
		db, err := pgdb.Open(context.Background(), url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(db.Close)
		out = append(out, NewScriptTokens(db))
	}
	return out
}

// count runs a count query on s's database.
func count(t *testing.T, s *ScriptTokens, query string, args ...any) int {
	t.Helper()
	var n int
	if err := s.db.Pool.QueryRow(context.Background(), query, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// anonymousOf is the ownership of an anonymous client at addr, under the bounds of the tests.
func anonymousOf(addr string, perOwner, total int) script.Ownership {
	return script.Ownership{Owner: addr, PerOwner: perOwner, Max: total}
}

// TestGrantBoundsAcrossReplicas: grants kept through two replicas: one anonymous client's
// flood leaves it its perOwner most recent in all, not per replica; many clients' leaves the
// total; a signed-in user's grant and its access token survive both, and their own bound is
// theirs alone.
func TestGrantBoundsAcrossReplicas(t *testing.T) {
	reps := twoReplicas(t)
	user := script.Ownership{Owner: "user:ada", Protected: true, PerOwner: 4, Max: 10}
	if err := reps[0].KeepGrant("g-ada", []byte("sealed"), user); err != nil {
		t.Fatal(err)
	}
	if err := reps[0].KeepAccess("g-ada", "a-ada", []byte("sealed"), 2); err != nil {
		t.Fatal(err)
	}
	for i := range 40 {
		if err := reps[i%2].KeepGrant(fmt.Sprintf("g-one-%02d", i), []byte("s"), anonymousOf("203.0.113.9", 4, 10)); err != nil {
			t.Fatal(err)
		}
	}
	if got := count(t, reps[0], `SELECT count(*) FROM script_grants WHERE owner = $1`, []byte("203.0.113.9")); got != 4 {
		t.Errorf("one client's 40 grants over two replicas: got %d kept; want 4 in all", got)
	}
	if got := count(t, reps[1], `SELECT count(*) FROM script_grants WHERE owner = $1 AND digest >= 'g-one-36'`, []byte("203.0.113.9")); got != 4 {
		t.Errorf("the client's grants kept: got %d of its 4 most recent; want all 4", got)
	}
	for i := range 40 {
		if err := reps[i%2].KeepGrant(fmt.Sprintf("g-many-%02d", i), []byte("s"), anonymousOf(fmt.Sprintf("100.64.0.%d", i), 4, 10)); err != nil {
			t.Fatal(err)
		}
	}
	if got := count(t, reps[0], `SELECT count(*) FROM script_grants WHERE NOT protected`); got != 10 {
		t.Errorf("after 40 clients over two replicas: got %d anonymous grants; want 10 in all", got)
	}
	if g, err := reps[1].GetGrant("g-ada"); g == nil || err != nil {
		t.Errorf("the signed-in user's grant after both floods: got %q, %v; want kept", g, err)
	}
	if g, _, err := reps[1].GetAccess("a-ada"); g != "g-ada" || err != nil {
		t.Errorf("the signed-in user's access token after both floods: got grant %q, %v; want g-ada", g, err)
	}
	for i := range 6 { // the user's own bound: their 4 most recent
		if err := reps[i%2].KeepGrant(fmt.Sprintf("g-ada-%d", i), []byte("s"), user); err != nil {
			t.Fatal(err)
		}
	}
	if got := count(t, reps[0], `SELECT count(*) FROM script_grants WHERE owner = $1`, []byte("user:ada")); got != 4 {
		t.Errorf("the user's 7 grants: got %d kept; want their 4 most recent", got)
	}
	if got := count(t, reps[0], `SELECT count(*) FROM script_grants WHERE NOT protected`); got != 10 {
		t.Errorf("anonymous grants after the user's: got %d; want still 10 (a user's grants evict only theirs)", got)
	}
}

// TestAccessPerGrantAndUse: access tokens issued from one grant through two replicas: its
// perGrant most recent are kept; one for a grant no longer kept is not; an evicted grant's go
// with it; issuing from a grant marks it used, so the grant no one used goes first.
func TestAccessPerGrantAndUse(t *testing.T) {
	reps := twoReplicas(t)
	o := anonymousOf("203.0.113.9", 3, 10)
	for _, g := range []string{"g1", "g2", "g3"} {
		if err := reps[0].KeepGrant(g, []byte("s"), o); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 5 {
		if err := reps[i%2].KeepAccess("g1", fmt.Sprintf("a%d", i), []byte("s"), 2); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 5 {
		g, _, err := reps[0].GetAccess(fmt.Sprintf("a%d", i))
		if want := map[bool]string{true: "g1", false: ""}[i >= 3]; g != want || err != nil {
			t.Errorf("access token %d of 5 from one grant: got grant %q, %v; want %q (the 2 most recent kept)", i, g, err, want)
		}
	}
	if err := reps[1].KeepAccess("g-none", "a-none", []byte("s"), 2); err != nil {
		t.Fatal(err)
	}
	if g, _, _ := reps[1].GetAccess("a-none"); g != "" {
		t.Errorf("an access token of a grant not kept: got grant %q; want none kept", g)
	}
	// g1 was used last (its access tokens), g2 least recently: a fourth grant evicts g2.
	if err := reps[1].KeepGrant("g4", []byte("s"), o); err != nil {
		t.Fatal(err)
	}
	for g, want := range map[string]bool{"g1": true, "g2": false, "g3": true, "g4": true} {
		if sealed, _ := reps[0].GetGrant(g); (sealed != nil) != want {
			t.Errorf("grant %s after a fourth past 3: got kept %v; want %v (g2 least recently used)", g, sealed != nil, want)
		}
	}
	if err := reps[0].KeepGrant("g5", []byte("s"), o); err != nil { // evicts g3
		t.Fatal(err)
	}
	if err := reps[0].KeepGrant("g6", []byte("s"), o); err != nil { // evicts g1 and its tokens
		t.Fatal(err)
	}
	if got := count(t, reps[0], `SELECT count(*) FROM script_access`); got != 0 {
		t.Errorf("access tokens after their grant was evicted: got %d; want 0", got)
	}
}

// TestCodeBoundsAcrossReplicas: codes kept through two replicas are bounded per owner and in
// all, never a signed-in user's for anonymous ones; expired ones go.
func TestCodeBoundsAcrossReplicas(t *testing.T) {
	reps := twoReplicas(t)
	base := time.Now().Add(time.Minute)
	user := script.Ownership{Owner: "user:ada", Protected: true, PerOwner: 3, Max: 5}
	if err := reps[0].KeepCode("c-ada", []byte("s"), base, user); err != nil {
		t.Fatal(err)
	}
	if err := reps[0].KeepCode("c-old", []byte("s"), time.Now().Add(-time.Second), anonymousOf("192.0.2.1", 3, 5)); err != nil {
		t.Fatal(err)
	}
	for i := range 20 {
		if err := reps[i%2].KeepCode(fmt.Sprintf("c-one-%02d", i), []byte("s"), base.Add(time.Duration(i)*time.Millisecond), anonymousOf("203.0.113.9", 3, 5)); err != nil {
			t.Fatal(err)
		}
	}
	if got := count(t, reps[0], `SELECT count(*) FROM script_codes WHERE owner = $1 AND digest >= 'c-one-17'`, []byte("203.0.113.9")); got != 3 {
		t.Errorf("one client's codes: got %d of its 3 most recent; want 3", got)
	}
	for i := range 20 {
		if err := reps[i%2].KeepCode(fmt.Sprintf("c-many-%02d", i), []byte("s"), base.Add(time.Second+time.Duration(i)*time.Millisecond), anonymousOf(fmt.Sprintf("100.64.0.%d", i), 3, 5)); err != nil {
			t.Fatal(err)
		}
	}
	if got := count(t, reps[0], `SELECT count(*) FROM script_codes WHERE NOT protected`); got != 5 {
		t.Errorf("anonymous codes after 21 clients over two replicas: got %d; want 5 in all", got)
	}
	if got := count(t, reps[0], `SELECT count(*) FROM script_codes WHERE digest IN ('c-ada', 'c-old')`); got != 1 {
		t.Errorf("the user's code and an expired one: got %d rows; want the user's only", got)
	}
	if sealed, used, err := reps[1].UseCode("c-ada"); sealed == nil || used || err != nil {
		t.Errorf("the user's code on the other replica: got %q, used %v, %v; want it, unused", sealed, used, err)
	}
}

// TestConsentAnsweredOnceAcrossReplicas: a consent request answered on one replica is
// answered already on the other, whichever answers second; records are bounded per owner and
// in all (an evicted one may be answered again, as in one process), and expired ones go.
func TestConsentAnsweredOnceAcrossReplicas(t *testing.T) {
	reps := twoReplicas(t)
	exp := time.Now().Add(10 * time.Minute)
	o := anonymousOf("203.0.113.9", 3, 5)
	for i, want := range []bool{true, false, false} {
		if first, err := reps[i%2].AnswerConsent("req-1", exp, o); first != want || err != nil {
			t.Errorf("answer %d of one request (on replica %d): got first %v, %v; want %v", i+1, i%2, first, err, want)
		}
	}
	for i := range 3 { // req-1 is its owner's oldest of 4: forgotten
		if _, err := reps[i%2].AnswerConsent(fmt.Sprintf("req-%d", i+2), exp.Add(time.Duration(i+1)*time.Millisecond), o); err != nil {
			t.Fatal(err)
		}
	}
	if got := count(t, reps[0], `SELECT count(*) FROM script_consents WHERE owner = $1`, []byte("203.0.113.9")); got != 3 {
		t.Errorf("one client's 4 answers: got %d kept; want 3", got)
	}
	if first, _ := reps[1].AnswerConsent("req-4", exp, o); first {
		t.Error("a kept answer answered again: got first; want answered before")
	}
	if _, err := reps[0].AnswerConsent("req-gone", time.Now().Add(-time.Second), anonymousOf("192.0.2.1", 3, 5)); err != nil {
		t.Fatal(err)
	}
	if _, err := reps[1].AnswerConsent("req-5", exp, anonymousOf("192.0.2.2", 3, 5)); err != nil {
		t.Fatal(err)
	}
	if got := count(t, reps[0], `SELECT count(*) FROM script_consents WHERE digest = 'req-gone'`); got != 0 {
		t.Errorf("an expired answer after another was recorded: got %d rows; want 0", got)
	}
}
