// Helpers of every service. This program runs once a run, before the user's code, inside a
// function whose parameters are native (natives.go), job (the run's project and user) and
// internal (what the engine reads back): nothing here is reachable from the user's code but
// the globals it defines.

var global = Function('return this')();
var hidden = new WeakMap(); // each service object's state

// exception is an Apps Script service error: an Error named "Exception".
function exception(message) {
  var e = new Error(message);
  e.name = 'Exception';
  return e;
}

// defineGlobal defines a service as Apps Script does: a global the user's code may redefine.
function defineGlobal(name, value) {
  Object.defineProperty(global, name, {value: value, writable: true, configurable: true, enumerable: false});
}

// makeClass returns a constructor the user cannot call (Apps Script's classes are not
// constructible) whose instances print as name and keep their state hidden.
function makeClass(name, methods) {
  var C = function () {
    throw new TypeError('Illegal constructor');
  };
  Object.defineProperty(C, 'name', {value: name});
  C.prototype.toString = function () {
    return name;
  };
  for (var m in methods) {
    Object.defineProperty(C.prototype, m, {value: methods[m], writable: true, configurable: true, enumerable: false});
  }
  return C;
}

// make returns a new instance of class C with state s.
function make(C, s) {
  var o = Object.create(C.prototype);
  hidden.set(o, s);
  return o;
}

// state returns the hidden state of o, an instance of a service class.
function state(o, what) {
  var s = hidden.get(o);
  if (s === undefined) {
    throw exception('Cannot call ' + what + ' on this object: it is not one of the service\'s objects.');
  }
  return s;
}

// makeEnum returns an Apps Script enum: an object of named values that print as their name.
function makeEnum(name, keys, extra) {
  var e = {};
  keys.forEach(function (k) {
    var v = Object.create(null);
    Object.defineProperty(v, 'toString', {value: function () { return k; }});
    Object.defineProperty(v, 'name', {value: function () { return k; }});
    Object.defineProperty(v, 'toJSON', {value: function () { return k; }});
    if (extra) {
      Object.keys(extra[k] || {}).forEach(function (p) {
        Object.defineProperty(v, p, {value: extra[k][p]});
      });
    }
    e[k] = Object.freeze(v);
  });
  Object.defineProperty(e, 'toString', {value: function () { return name; }});
  return Object.freeze(e);
}

// enumName is the name of an enum value or of a string naming one.
function enumName(v) {
  return v === null || v === undefined ? '' : String(v);
}

// typeName is how Apps Script names an argument's type in its signature errors.
function typeName(v) {
  if (v === null) return 'null';
  if (v === undefined) return 'undefined';
  if (Array.isArray(v)) {
    return (v.length > 0 && Array.isArray(v[0]) ? 'Object[][]' : 'Object[]');
  }
  switch (typeof v) {
    case 'string': return 'String';
    case 'number': return 'number';
    case 'boolean': return 'Boolean';
    case 'function': return 'Function';
  }
  if (v instanceof Date) return 'Date';
  var s = hidden.get(v);
  if (s !== undefined) return String(v);
  return 'Object';
}

// badArguments is Apps Script's error for a call whose arguments fit no signature.
function badArguments(method, args) {
  var types = Array.prototype.map.call(args, typeName).join(',');
  return exception('The parameters (' + types + ') don\'t match the method signature for ' + method + '.');
}

// need checks that args has at least n arguments and that each checked one has its type
// ('string', 'number', 'boolean', 'object' or a class): else the signature error of method.
function need(method, args, n, types) {
  if (args.length < n) throw badArguments(method, args);
  (types || []).forEach(function (t, i) {
    if (i >= args.length) return;
    var v = args[i];
    var ok = typeof t === 'function' ? v instanceof t : (t === 'object' ? v !== null && typeof v === 'object' : typeof v === t);
    if (!ok) throw badArguments(method, args);
  });
}

// clone copies a JSON-like value.
function clone(v) {
  return v === undefined ? undefined : JSON.parse(JSON.stringify(v));
}
