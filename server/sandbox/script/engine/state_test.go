package engine

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestSession checks Session: the user the script runs as and the manifest's time zone, which
// is also what the script's Dates read.
func TestSession(t *testing.T) {
	runCases(t, newMemHost(), "Asia/Tokyo", []serviceCase{
		{"active user", `return [Session.getActiveUser().getEmail(), Session.getEffectiveUser().getEmail(), String(Session.getActiveUser())];`,
			`["ada@example.com","ada@example.com","ada@example.com"]`},
		{"time zone", `return [Session.getScriptTimeZone(), new Date(0).getHours(), new Date(Date.UTC(2026, 0, 1)).getTimezoneOffset()];`, `["Asia/Tokyo",9,-540]`},
	})
	runCases(t, newMemHost(), "", []serviceCase{
		{"default time zone", `return Session.getScriptTimeZone();`, `"America/New_York"`},
	})
}

// TestPropertiesService checks the property stores against Apps Script's documentation:
// strings in and out, null for a missing key, chaining, setProperties with deleteAllOthers,
// the stores kept apart and across runs, no document properties for a standalone script, and
// the quotas' errors.
func TestPropertiesService(t *testing.T) {
	host := newMemHost()
	runCases(t, host, "UTC", []serviceCase{
		{"set and get", `var p = PropertiesService.getScriptProperties();
return [p.setProperty('count', 3) === p, p.getProperty('count'), typeof p.getProperty('count'), p.getProperty('none')];`, `[true,"3","string",null]`},
		{"kept across runs", `return PropertiesService.getScriptProperties().getProperty('count');`, `"3"`},
		{"stores apart", `PropertiesService.getUserProperties().setProperty('count', 'mine');
return [PropertiesService.getScriptProperties().getProperty('count'), PropertiesService.getUserProperties().getProperty('count')];`, `["3","mine"]`},
		{"setProperties", `var p = PropertiesService.getScriptProperties().setProperties({a: 1, b: true});
return [p.getKeys().sort(), p.getProperties()];`, `[["a","b","count"],{"count":"3","a":"1","b":"true"}]`},
		{"deleteAllOthers", `var p = PropertiesService.getScriptProperties().setProperties({z: 'last'}, true);
return p.getProperties();`, `{"z":"last"}`},
		{"delete", `var p = PropertiesService.getScriptProperties();
p.deleteProperty('z').setProperty('y', 'x');
return p.getProperties();`, `{"y":"x"}`},
		{"deleteAll", `PropertiesService.getUserProperties().deleteAllProperties();
return PropertiesService.getUserProperties().getKeys();`, `[]`},
		{"no document properties", `return PropertiesService.getDocumentProperties();`, `null`},
		{"value too large", `PropertiesService.getScriptProperties().setProperty('big', 'x'.repeat(9 * 1024 + 1));`, `Exception: Argument too large: value`},
		{"store quota", `var p = PropertiesService.getScriptProperties();
for (var i = 0; i < 60; i++) p.setProperty('k' + i, 'x'.repeat(9000));`,
			`Exception: You have exceeded the property storage quota. Please remove some properties and try again.`},
	})
	if got := string(host.docs["props/script/1scriptAbc"]); !strings.Contains(got, `"y":"x"`) {
		t.Errorf("the script properties document: got %s", got)
	}
	if _, ok := host.docs["props/user/1scriptAbc/ada@example.com"]; ok {
		t.Errorf("the user properties document should be gone after deleteAllProperties")
	}
}

// TestBoundScript checks what a script bound to a spreadsheet (the project's parentId) has
// that a standalone one does not: document properties, cache and lock.
func TestBoundScript(t *testing.T) {
	host := newMemHost()
	job := Job{Files: []File{{Name: "Code", Type: "SERVER_JS", Source: `function f() {
  PropertiesService.getDocumentProperties().setProperty('k', 'v');
  CacheService.getDocumentCache().put('c', 'd');
  var l = LockService.getDocumentLock();
  return [PropertiesService.getDocumentProperties().getProperty('k'), CacheService.getDocumentCache().get('c'), l.tryLock(10), l.hasLock()];
}`}}, Function: "f", User: "ada@example.com", ScriptID: "1script", ParentID: "1sheet", Limits: Limits{Timeout: 5 * time.Second}}
	if got := outcome(Run(job, host)); got != `["v","d",true,true]` {
		t.Errorf("got %s", got)
	}
}

// TestCacheService checks the caches: strings in and out, null for a missing or expired key,
// getAll, remove, removeAll, and the bounds' errors.
func TestCacheService(t *testing.T) {
	host := newMemHost()
	host.docs["cache/script/1scriptAbc"] = json.RawMessage(`{"old":{"v":"stale","e":1000}}`)
	runCases(t, host, "UTC", []serviceCase{
		{"put and get", `var c = CacheService.getScriptCache();
c.put('a', 1); c.put('b', 'two', 60);
return [c.get('a'), c.get('b'), c.get('none'), c.get('old')];`, `["1","two",null,null]`},
		{"kept across runs", `return CacheService.getScriptCache().getAll(['a', 'b', 'none']);`, `{"a":"1","b":"two"}`},
		{"user cache apart", `return CacheService.getUserCache().get('a');`, `null`},
		{"putAll, remove", `var c = CacheService.getScriptCache();
c.putAll({x: 'y', z: 2}); c.remove('a'); c.removeAll(['b', 'x']);
return [c.get('a'), c.get('b'), c.get('x'), c.get('z')];`, `[null,null,null,"2"]`},
		{"no document cache", `return CacheService.getDocumentCache();`, `null`},
		{"key too long", `CacheService.getScriptCache().put('k'.repeat(251), 'v');`, `Exception: Argument too large: key`},
		{"value too large", `CacheService.getScriptCache().put('k', 'v'.repeat(100 * 1024 + 1));`, `Exception: Argument too large: value`},
	})
	if got := string(host.docs["cache/script/1scriptAbc"]); strings.Contains(got, "stale") {
		t.Errorf("an expired entry stays after the cache was written: %s", got)
	}
}

// TestLockService checks the locks: taken and released, re-entrant in a run, a wait that times
// out with Apps Script's message while another run holds it, and what a run holds is released
// when it ends (the host's job; here a held lock is seen as taken).
func TestLockService(t *testing.T) {
	host := newMemHost()
	runCases(t, host, "UTC", []serviceCase{
		{"try, has, release", `var l = LockService.getScriptLock();
var a = l.tryLock(100), b = l.hasLock(), c = l.tryLock(0);
l.releaseLock();
return [a, b, c, l.hasLock()];`, `[true,true,true,false]`},
		{"no document lock", `return LockService.getDocumentLock();`, `null`},
	})
	host.locks["script/1scriptAbc"] = true // another run holds it
	runCases(t, host, "UTC", []serviceCase{
		{"tryLock while held", `return LockService.getScriptLock().tryLock(50);`, `false`},
		{"waitLock while held", `LockService.getScriptLock().waitLock(50);`, `Exception: Lock timeout: another process was holding the lock for too long.`},
		{"user lock apart", `return LockService.getUserLock().tryLock(0);`, `true`},
	})
}

// TestLockCommitsWrites checks the pattern locks exist for: the writes made under a lock are
// stored when it is released, and a run that takes the lock reads the state again.
func TestLockCommitsWrites(t *testing.T) {
	host := newMemHost()
	src := `function f() {
  var lock = LockService.getScriptLock();
  lock.waitLock(1000);
  var p = PropertiesService.getScriptProperties();
  p.setProperty('n', Number(p.getProperty('n') || 0) + 1);
  lock.releaseLock();
  Utilities.sleep(20);
  return p.getProperty('n');
}`
	job := Job{Files: []File{{Name: "Code", Type: "SERVER_JS", Source: src}}, Function: "f", User: "a@b.c", ScriptID: "1scriptAbc", Limits: Limits{Timeout: 5 * time.Second}}
	r := Run(job, host)
	if got := outcome(r); got != `"1"` || len(r.Changes) != 0 {
		t.Errorf("got %s and %d changes left; want 1 stored at the release", got, len(r.Changes))
	}
	if got := string(host.docs["props/script/1scriptAbc"]); got != `{"n":"1"}` {
		t.Errorf("stored: got %s", got)
	}
}
