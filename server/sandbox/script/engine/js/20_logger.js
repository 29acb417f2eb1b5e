// Logger and console: each line goes to the run's log (the X-Loupe-Script-Logs header);
// Logger's lines are also what Logger.getLog returns until Logger.clear.

// javaText is how Logger prints a value, as Apps Script's Java-backed Logger does: objects as
// {key=value, …}, arrays as [a, b], an object with a message property as that message.
function javaText(v, depth) {
  depth = depth || 0;
  if (v === null) return 'null';
  if (v === undefined) return 'undefined';
  if (typeof v !== 'object' || v instanceof Date || v instanceof Error || hidden.has(v) || depth > 8) return String(v);
  if (Array.isArray(v)) {
    return '[' + v.map(function (x) { return javaText(x, depth + 1); }).join(', ') + ']';
  }
  return '{' + Object.keys(v).map(function (k) { return k + '=' + javaText(v[k], depth + 1); }).join(', ') + '}';
}

// javaFormat is String.format for the conversions scripts use: %s %S %d %f %.Nf %b %x %c %n %%,
// with a width, - (left-justify) and 0 (pad numbers with zeros).
function javaFormat(format, values) {
  var i = 0;
  return format.replace(/%(-)?(0)?(\d+)?(?:\.(\d+))?([sSdfbxcn%])/g, function (all, left, zero, width, prec, conv) {
    if (conv === '%') return '%';
    if (conv === 'n') return '\n';
    if (i >= values.length) return all;
    var v = values[i++], s;
    switch (conv) {
      case 'd': s = String(Math.trunc(Number(v))); break;
      case 'f': s = Number(v).toFixed(prec === undefined ? 6 : Number(prec)); break;
      case 'b': s = String(v !== null && v !== undefined && v !== false); break;
      case 'x': s = Math.trunc(Number(v)).toString(16); break;
      case 'c': s = typeof v === 'number' ? String.fromCharCode(v) : String(v).charAt(0); break;
      default:
        s = javaText(v);
        if (prec !== undefined) s = s.slice(0, Number(prec));
        if (conv === 'S') s = s.toUpperCase();
    }
    var w = width === undefined ? 0 : Number(width);
    var numeric = conv === 'd' || conv === 'f' || conv === 'x';
    while (s.length < w) {
      if (left) s += ' ';
      else if (zero && numeric) s = s.charAt(0) === '-' ? '-0' + s.slice(1) : '0' + s;
      else s = ' ' + s;
    }
    return s;
  });
}

var Logger = makeClass('Logger', {
  log: function (data) {
    var line;
    if (arguments.length === 0) {
      line = '';
    } else if (arguments.length > 1 && typeof data === 'string') {
      line = javaFormat(data, Array.prototype.slice.call(arguments, 1));
    } else if (data !== null && typeof data === 'object' && !(data instanceof Error) && 'message' in data) {
      line = String(data.message);
    } else {
      line = javaText(data);
    }
    native.logger(line);
    return this;
  },
  getLog: function () {
    return native.getLog();
  },
  clear: function () {
    native.clearLog();
  }
});
defineGlobal('Logger', make(Logger, {}));

// consoleText is how console prints a value: strings as they are, objects as JSON.
function consoleText(v) {
  if (v === null || typeof v !== 'object' || v instanceof Date || v instanceof Error || hidden.has(v)) return String(v);
  try {
    var s = JSON.stringify(v);
    return s === undefined ? String(v) : s;
  } catch (e) {
    return String(v);
  }
}

// consoleLine formats console's arguments: a first string's %s %d %i %f %o %O %j take the next
// values; the rest are joined by spaces.
function consoleLine(args) {
  args = Array.prototype.slice.call(args);
  var first = '';
  if (typeof args[0] === 'string') {
    first = args.shift().replace(/%([sdifoOj%])/g, function (all, c) {
      if (c === '%') return '%';
      if (args.length === 0) return all;
      var v = args.shift();
      switch (c) {
        case 'd': case 'i': return String(Math.trunc(Number(v)));
        case 'f': return String(Number(v));
        case 's': return typeof v === 'string' ? v : consoleText(v);
      }
      return consoleText(v);
    });
    return [first].concat(args.map(consoleText)).join(' ');
  }
  return args.map(consoleText).join(' ');
}

var timers = Object.create(null);
var consoleObject = {};
['log', 'info', 'warn', 'error', 'debug'].forEach(function (level) {
  consoleObject[level] = function () {
    native.log(consoleLine(arguments));
  };
});
consoleObject.time = function (label) {
  timers[label === undefined ? 'default' : String(label)] = native.now();
};
consoleObject.timeEnd = function (label) {
  label = label === undefined ? 'default' : String(label);
  if (label in timers) {
    native.log(label + ': ' + (native.now() - timers[label]) + 'ms');
    delete timers[label];
  }
};
defineGlobal('console', consoleObject);
