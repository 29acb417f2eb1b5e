// Session: the user the script runs as and the script's time zone (the manifest's timeZone).

var User = makeClass('User', {
  getEmail: function () { return state(this, 'getEmail').email; },
  getUsername: function () { return state(this, 'getUsername').email.split('@')[0]; },
  getUserLoginId: function () { return state(this, 'getUserLoginId').email; },
  toString: function () { return state(this, 'toString').email; }
});

var activeUser = make(User, {email: job.user});

var Session = makeClass('Session', {
  getActiveUser: function () { return activeUser; },
  getEffectiveUser: function () { return activeUser; },
  getActiveUserLocale: function () { return 'en'; },
  getScriptTimeZone: function () { return job.timeZone; },
  getTimeZone: function () { return job.timeZone; },
  getTemporaryActiveUserKey: function () {
    return native.base64Encode(native.digest('SHA_256', job.scriptId + '\n' + job.user, 'UTF_8'), 'UTF_8', true).slice(0, 43);
  }
});
defineGlobal('Session', make(Session, {}));
