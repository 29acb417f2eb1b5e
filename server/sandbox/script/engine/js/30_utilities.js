// Utilities and Blob. Bytes are Byte[]: arrays of signed bytes, as Apps Script's Java bytes.

var Charset = makeEnum('Charset', ['US_ASCII', 'UTF_8']);
var DigestAlgorithm = makeEnum('DigestAlgorithm', ['MD2', 'MD5', 'SHA_1', 'SHA_256', 'SHA_384', 'SHA_512']);
var MacAlgorithm = makeEnum('MacAlgorithm', ['HMAC_MD5', 'HMAC_SHA_1', 'HMAC_SHA_256', 'HMAC_SHA_384', 'HMAC_SHA_512']);
var RsaAlgorithm = makeEnum('RsaAlgorithm', ['RSA_SHA_1', 'RSA_SHA_256']);

// bytesOrText is a Byte[] or a string argument as the natives read it (a Blob gives its bytes).
function bytesOrText(method, args, i) {
  var v = args[i];
  if (v !== null && typeof v === 'object' && hidden.has(v) && String(v) === 'Blob') return state(v).bytes;
  if (typeof v === 'string' || Array.isArray(v)) return v;
  throw badArguments(method, args);
}

// charsetOf is the charset argument i (UTF_8 when absent).
function charsetOf(method, args, i) {
  if (args.length <= i || args[i] === undefined) return 'UTF_8';
  var c = enumName(args[i]);
  if (c !== 'UTF_8' && c !== 'US_ASCII') throw badArguments(method, args);
  return c;
}

var Blob = makeClass('Blob', {
  getBytes: function () { return state(this, 'getBytes').bytes.slice(); },
  getDataAsString: function (charset) {
    return native.text(state(this, 'getDataAsString').bytes, charsetOf('Blob.getDataAsString', arguments, 0));
  },
  getContentType: function () { return state(this, 'getContentType').contentType; },
  setContentType: function (t) { state(this, 'setContentType').contentType = t === null ? null : String(t); return this; },
  getName: function () { return state(this, 'getName').name; },
  setName: function (n) { state(this, 'setName').name = n === null ? null : String(n); return this; },
  setBytes: function (data) {
    need('Blob.setBytes', arguments, 1);
    state(this, 'setBytes').bytes = native.bytes(bytesOrText('Blob.setBytes', arguments, 0));
    return this;
  },
  setDataFromString: function (s, charset) {
    need('Blob.setDataFromString', arguments, 1, ['string']);
    state(this, 'setDataFromString').bytes = native.bytes(s, charsetOf('Blob.setDataFromString', arguments, 1));
    return this;
  },
  copyBlob: function () {
    var s = state(this, 'copyBlob');
    return make(Blob, {bytes: s.bytes.slice(), contentType: s.contentType, name: s.name});
  },
  getBlob: function () { return this; },
  isGoogleType: function () { return false; },
  getAs: function (contentType) {
    var s = state(this, 'getAs');
    if (String(contentType) !== s.contentType) {
      throw exception('The sandbox does not convert blobs: ' + s.contentType + ' to ' + contentType + ' is not offered.');
    }
    return this.copyBlob();
  }
});

// newBlob makes a Blob of data (Byte[] or string) with a content type and a name.
function newBlob(data, contentType, name) {
  need('Utilities.newBlob', arguments, 1);
  var bytes = native.bytes(bytesOrText('Utilities.newBlob', arguments, 0), 'UTF_8');
  return make(Blob, {bytes: bytes, contentType: contentType === undefined || contentType === null ? null : String(contentType),
    name: name === undefined || name === null ? null : String(name)});
}

var Utilities = makeClass('Utilities', {
  base64Encode: function (data, charset) {
    need('Utilities.base64Encode', arguments, 1);
    return native.base64Encode(bytesOrText('Utilities.base64Encode', arguments, 0), charsetOf('Utilities.base64Encode', arguments, 1), false);
  },
  base64EncodeWebSafe: function (data, charset) {
    need('Utilities.base64EncodeWebSafe', arguments, 1);
    return native.base64Encode(bytesOrText('Utilities.base64EncodeWebSafe', arguments, 0), charsetOf('Utilities.base64EncodeWebSafe', arguments, 1), true);
  },
  base64Decode: function (encoded, charset) {
    need('Utilities.base64Decode', arguments, 1, ['string']);
    return native.base64Decode(encoded, false);
  },
  base64DecodeWebSafe: function (encoded, charset) {
    need('Utilities.base64DecodeWebSafe', arguments, 1, ['string']);
    return native.base64Decode(encoded, true);
  },
  computeDigest: function (algorithm, value, charset) {
    need('Utilities.computeDigest', arguments, 2);
    return native.digest(enumName(algorithm), bytesOrText('Utilities.computeDigest', arguments, 1), charsetOf('Utilities.computeDigest', arguments, 2));
  },
  computeHmacSignature: function (algorithm, value, key, charset) {
    need('Utilities.computeHmacSignature', arguments, 3);
    return native.hmac(enumName(algorithm), bytesOrText('Utilities.computeHmacSignature', arguments, 1),
      bytesOrText('Utilities.computeHmacSignature', arguments, 2), charsetOf('Utilities.computeHmacSignature', arguments, 3));
  },
  computeHmacSha256Signature: function (value, key, charset) {
    need('Utilities.computeHmacSha256Signature', arguments, 2);
    return native.hmac('HMAC_SHA_256', bytesOrText('Utilities.computeHmacSha256Signature', arguments, 0),
      bytesOrText('Utilities.computeHmacSha256Signature', arguments, 1), charsetOf('Utilities.computeHmacSha256Signature', arguments, 2));
  },
  computeRsaSignature: function () {
    throw exception('Utilities.computeRsaSignature is not offered by the Loupe sandbox: it holds no private keys.');
  },
  computeRsaSha1Signature: function () {
    throw exception('Utilities.computeRsaSha1Signature is not offered by the Loupe sandbox: it holds no private keys.');
  },
  computeRsaSha256Signature: function () {
    throw exception('Utilities.computeRsaSha256Signature is not offered by the Loupe sandbox: it holds no private keys.');
  },
  formatDate: function (date, timeZone, format) {
    need('Utilities.formatDate', arguments, 3, [Date, 'string', 'string']);
    if (isNaN(date.getTime())) throw exception('Invalid argument: date');
    return native.formatDate(date.getTime(), timeZone, format);
  },
  formatString: function (template) {
    need('Utilities.formatString', arguments, 1, ['string']);
    return javaFormat(template, Array.prototype.slice.call(arguments, 1));
  },
  getUuid: function () { return native.uuid(); },
  jsonParse: function (s) { return JSON.parse(s); },
  jsonStringify: function (o) { return JSON.stringify(o); },
  newBlob: newBlob,
  parseCsv: function (csv, delimiter) {
    need('Utilities.parseCsv', arguments, 1, ['string']);
    return native.parseCsv(csv, delimiter === undefined ? ',' : String(delimiter));
  },
  sleep: function (milliseconds) {
    need('Utilities.sleep', arguments, 1, ['number']);
    if (milliseconds > 300000) throw exception('Invalid argument: milliseconds. The maximum allowed value is 300000.');
    native.sleep(Math.max(0, milliseconds));
  },
  zip: notOfferedMethod('Utilities.zip'),
  unzip: notOfferedMethod('Utilities.unzip'),
  gzip: notOfferedMethod('Utilities.gzip'),
  ungzip: notOfferedMethod('Utilities.ungzip')
});

// notOfferedMethod is a method the sandbox does not emulate: it says so when called.
function notOfferedMethod(name) {
  return function () {
    throw exception(name + ' is not offered by the Loupe sandbox.');
  };
}

var utilities = make(Utilities, {});
[['Charset', Charset], ['DigestAlgorithm', DigestAlgorithm], ['MacAlgorithm', MacAlgorithm], ['RsaAlgorithm', RsaAlgorithm]].forEach(function (e) {
  Object.defineProperty(utilities, e[0], {value: e[1], enumerable: true});
});
defineGlobal('Utilities', utilities);
