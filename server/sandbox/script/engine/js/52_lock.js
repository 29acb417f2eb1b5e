// LockService: locks shared by the user's runs of the script (the host holds them). Taking a
// lock commits this run's writes and reads the state again after; releasing one (or the run's
// end) commits them, so that the next holder sees them.

var Lock = makeClass('Lock', {
  tryLock: function (timeoutInMillis) {
    need('Lock.tryLock', arguments, 1, ['number']);
    return takeLock(state(this, 'tryLock'), timeoutInMillis);
  },
  waitLock: function (timeoutInMillis) {
    need('Lock.waitLock', arguments, 1, ['number']);
    if (!takeLock(state(this, 'waitLock'), timeoutInMillis)) {
      throw exception('Lock timeout: another process was holding the lock for too long.');
    }
  },
  releaseLock: function () {
    var s = state(this, 'releaseLock');
    if (!s.held) return;
    commit();
    native.unlock(s.scope);
    s.held = false;
  },
  hasLock: function () { return state(this, 'hasLock').held; }
});

// takeLock takes the lock of s, waiting at most ms; held locks are re-entrant.
function takeLock(s, ms) {
  if (s.held) return true;
  commit();
  if (!native.lock(s.scope, Math.max(0, ms))) return false;
  s.held = true;
  forget();
  return true;
}

// lockScope names a lock of a scope of this script for the host.
function lockScope(scope) {
  switch (scope) {
    case 'script': return 'script/' + job.scriptId;
    case 'user': return 'user/' + job.scriptId + '/' + job.user;
  }
  return job.parentId ? 'document/' + job.scriptId + '/' + job.parentId : null;
}

var LockService = makeClass('LockService', {
  getScriptLock: function () { return make(Lock, {scope: lockScope('script'), held: false}); },
  getUserLock: function () { return make(Lock, {scope: lockScope('user'), held: false}); },
  getDocumentLock: function () {
    var scope = lockScope('document');
    return scope === null ? null : make(Lock, {scope: scope, held: false});
  }
});
defineGlobal('LockService', make(LockService, {}));
