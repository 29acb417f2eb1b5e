// PropertiesService: string properties of the script, of the user and of the bound document,
// kept in the user's state (props/… documents). Apps Script's quotas hold: 9 KB a value,
// 500 KB a store.

var MAX_PROPERTY_VALUE = 9 * 1024;
var MAX_PROPERTY_STORE = 500 * 1024;

// storeSize is the bytes a store's keys and values take.
function storeSize(doc) {
  var n = 0;
  Object.keys(doc || {}).forEach(function (k) { n += k.length + String(doc[k]).length; });
  return n;
}

var Properties = makeClass('Properties', {
  getProperty: function (key) {
    need('Properties.getProperty', arguments, 1);
    var doc = readDoc(state(this, 'getProperty').key) || {};
    var k = String(key);
    return Object.prototype.hasOwnProperty.call(doc, k) ? doc[k] : null;
  },
  getProperties: function () {
    return Object.assign({}, readDoc(state(this, 'getProperties').key) || {});
  },
  getKeys: function () {
    return Object.keys(readDoc(state(this, 'getKeys').key) || {});
  },
  setProperty: function (key, value) {
    need('Properties.setProperty', arguments, 2);
    var set = {};
    set[String(key)] = String(value);
    writeProperties(state(this, 'setProperty').key, set, false);
    return this;
  },
  setProperties: function (properties, deleteAllOthers) {
    need('Properties.setProperties', arguments, 1, ['object']);
    var set = {};
    Object.keys(properties).forEach(function (k) { set[k] = String(properties[k]); });
    writeProperties(state(this, 'setProperties').key, set, deleteAllOthers === true);
    return this;
  },
  deleteProperty: function (key) {
    need('Properties.deleteProperty', arguments, 1);
    var del = {};
    del[String(key)] = undefined;
    setFields(state(this, 'deleteProperty').key, del);
    return this;
  },
  deleteAllProperties: function () {
    clearDoc(state(this, 'deleteAllProperties').key);
    return this;
  }
});

// writeProperties sets properties of the store key (after deleting the others when asked),
// within Apps Script's quotas.
function writeProperties(key, set, deleteOthers) {
  Object.keys(set).forEach(function (k) {
    if (set[k].length > MAX_PROPERTY_VALUE) throw exception('Argument too large: value');
  });
  var next = Object.assign({}, deleteOthers ? {} : readDoc(key) || {}, set);
  if (storeSize(next) > MAX_PROPERTY_STORE) {
    throw exception('You have exceeded the property storage quota. Please remove some properties and try again.');
  }
  if (deleteOthers) clearDoc(key);
  setFields(key, set);
}

// storeKey is the document key of a store of a scope (script, user, document) of this script.
function storeKey(kind, scope) {
  switch (scope) {
    case 'script': return kind + '/script/' + job.scriptId;
    case 'user': return kind + '/user/' + job.scriptId + '/' + job.user;
  }
  return job.parentId ? kind + '/document/' + job.scriptId + '/' + job.parentId : null;
}

var PropertiesService = makeClass('PropertiesService', {
  getScriptProperties: function () { return make(Properties, {key: storeKey('props', 'script')}); },
  getUserProperties: function () { return make(Properties, {key: storeKey('props', 'user')}); },
  getDocumentProperties: function () {
    var key = storeKey('props', 'document');
    return key === null ? null : make(Properties, {key: key});
  }
});
defineGlobal('PropertiesService', make(PropertiesService, {}));
