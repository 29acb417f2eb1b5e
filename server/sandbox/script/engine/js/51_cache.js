// CacheService: string values that expire (600 s by default, 6 hours at most), kept in the
// user's state (cache/… documents, entries {"v": value, "e": expiry in ms since the epoch}).
// Apps Script's bounds hold: keys of 250 characters, values of 100 KB.

var MAX_CACHE_KEY = 250;
var MAX_CACHE_VALUE = 100 * 1024;

// cacheEntry returns the live value of key in the cache document (null when absent or expired).
function cacheEntry(doc, key) {
  var e = doc && Object.prototype.hasOwnProperty.call(doc, key) ? doc[key] : null;
  return e && e.e > native.now() ? e.v : null;
}

// cacheKey checks and returns a key argument.
function cacheKey(key) {
  key = String(key);
  if (key.length > MAX_CACHE_KEY) throw exception('Argument too large: key');
  return key;
}

// cachePut writes values (key -> string) with an expiration in seconds to the cache key.
function cachePut(docKey, values, seconds) {
  var s = seconds === undefined ? 600 : Math.min(Math.max(Number(seconds), 1), 21600);
  if (isNaN(s)) throw exception('Invalid argument: expirationInSeconds');
  var until = native.now() + s * 1000;
  var set = {};
  Object.keys(values).forEach(function (k) {
    var v = String(values[k]);
    if (v.length > MAX_CACHE_VALUE) throw exception('Argument too large: value');
    set[cacheKey(k)] = {v: v, e: until};
  });
  // entries that have expired are dropped as the cache is written
  var doc = readDoc(docKey) || {};
  Object.keys(doc).forEach(function (k) {
    if (!(k in set) && !(doc[k].e > native.now())) set[k] = undefined;
  });
  setFields(docKey, set);
}

var Cache = makeClass('Cache', {
  get: function (key) {
    need('Cache.get', arguments, 1);
    return cacheEntry(readDoc(state(this, 'get').key), cacheKey(key));
  },
  getAll: function (keys) {
    need('Cache.getAll', arguments, 1, [Array]);
    var doc = readDoc(state(this, 'getAll').key), out = {};
    keys.forEach(function (k) {
      var v = cacheEntry(doc, cacheKey(k));
      if (v !== null) out[k] = v;
    });
    return out;
  },
  put: function (key, value, expirationInSeconds) {
    need('Cache.put', arguments, 2);
    var values = {};
    values[cacheKey(key)] = value;
    cachePut(state(this, 'put').key, values, expirationInSeconds);
  },
  putAll: function (values, expirationInSeconds) {
    need('Cache.putAll', arguments, 1, ['object']);
    cachePut(state(this, 'putAll').key, values, expirationInSeconds);
  },
  remove: function (key) {
    need('Cache.remove', arguments, 1);
    var del = {};
    del[cacheKey(key)] = undefined;
    setFields(state(this, 'remove').key, del);
  },
  removeAll: function (keys) {
    need('Cache.removeAll', arguments, 1, [Array]);
    var del = {};
    keys.forEach(function (k) { del[cacheKey(k)] = undefined; });
    setFields(state(this, 'removeAll').key, del);
  }
});

var CacheService = makeClass('CacheService', {
  getScriptCache: function () { return make(Cache, {key: storeKey('cache', 'script')}); },
  getUserCache: function () { return make(Cache, {key: storeKey('cache', 'user')}); },
  getDocumentCache: function () {
    var key = storeKey('cache', 'document');
    return key === null ? null : make(Cache, {key: key});
  }
});
defineGlobal('CacheService', make(CacheService, {}));
