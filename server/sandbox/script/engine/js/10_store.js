// The user's state, as documents the host keeps (engine/changes.go names them): read once a
// run (or again after a lock is taken), written back as changes when the run ends, when a lock
// is released or when SpreadsheetApp.flush is called.

var docs = Object.create(null);    // key -> the document as read or written (null: none)
var pending = Object.create(null); // key -> {whole: bool, cleared: bool, fields: {name: true}}

// readDoc returns the document with the key (null when there is none).
function readDoc(key) {
  if (!(key in docs)) {
    var raw = native.load(key);
    docs[key] = raw === null ? null : JSON.parse(raw);
  }
  return docs[key];
}

// pendingOf returns the pending writes of key.
function pendingOf(key) {
  return pending[key] || (pending[key] = {whole: false, cleared: false, fields: Object.create(null)});
}

// setFields writes fields of the object document key (undefined deletes a field).
function setFields(key, fields) {
  var doc = readDoc(key) || (docs[key] = {});
  var p = pendingOf(key);
  Object.keys(fields).forEach(function (f) {
    if (fields[f] === undefined) {
      delete doc[f];
    } else {
      doc[f] = fields[f];
    }
    p.fields[f] = true;
  });
}

// clearDoc deletes the document key.
function clearDoc(key) {
  docs[key] = {};
  var p = pendingOf(key);
  p.cleared = true;
  p.whole = false;
  p.fields = Object.create(null);
}

// putDoc marks the whole document key written (its object is docs[key], changed in place).
function putDoc(key, doc) {
  docs[key] = doc;
  pendingOf(key).whole = true;
}

// takeChanges returns the pending writes as Changes and forgets them.
function takeChanges() {
  var out = [];
  Object.keys(pending).forEach(function (key) {
    var p = pending[key];
    var doc = docs[key];
    if (p.whole) {
      out.push(doc === null ? {key: key, clear: true} : {key: key, put: doc});
      return;
    }
    var c = {key: key};
    if (p.cleared) c.clear = true;
    var set = {}, del = [];
    Object.keys(p.fields).forEach(function (f) {
      if (doc && Object.prototype.hasOwnProperty.call(doc, f)) {
        set[f] = doc[f];
      } else if (!p.cleared) {
        del.push(f);
      }
    });
    if (del.length) c.del = del;
    if (Object.keys(set).length) c.set = set;
    out.push(c);
  });
  pending = Object.create(null);
  return out;
}

// commit stores the pending writes now.
function commit() {
  var changes = takeChanges();
  if (changes.length) native.commit(JSON.stringify(changes));
}

// forget drops what was read, so that it is read again (after a lock is taken: another run may
// have written it meanwhile). Pending writes are committed first.
function forget() {
  commit();
  docs = Object.create(null);
}

internal.changes = function () {
  return JSON.stringify(takeChanges());
};
