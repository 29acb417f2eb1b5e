// ContentService: text a web app serves with its MIME type (TextOutput).

var mimeTypes = {ATOM: 'application/atom+xml', CSV: 'text/csv', ICAL: 'text/calendar', JAVASCRIPT: 'application/javascript',
  JSON: 'application/json', RSS: 'application/rss+xml', TEXT: 'text/plain', VCARD: 'text/vcard', XML: 'text/xml'};
var MimeType = makeEnum('MimeType', Object.keys(mimeTypes));

var TextOutput = makeClass('TextOutput', {
  append: function (addedContent) {
    state(this, 'append').content += String(addedContent);
    return this;
  },
  clear: function () {
    state(this, 'clear').content = '';
    return this;
  },
  downloadAsFile: function (filename) {
    need('TextOutput.downloadAsFile', arguments, 1, ['string']);
    state(this, 'downloadAsFile').fileName = filename;
    return this;
  },
  getContent: function () { return state(this, 'getContent').content; },
  getFileName: function () { return state(this, 'getFileName').fileName; },
  getMimeType: function () { return MimeType[state(this, 'getMimeType').mimeType]; },
  setContent: function (content) {
    state(this, 'setContent').content = String(content);
    return this;
  },
  setMimeType: function (mimeType) {
    var name = enumName(mimeType);
    if (!(name in mimeTypes)) throw badArguments('TextOutput.setMimeType', arguments);
    state(this, 'setMimeType').mimeType = name;
    return this;
  }
});

var ContentService = makeClass('ContentService', {
  createTextOutput: function (content) {
    return make(TextOutput, {content: content === undefined ? '' : String(content), mimeType: 'TEXT', fileName: null});
  }
});
var contentService = make(ContentService, {});
Object.defineProperty(contentService, 'MimeType', {value: MimeType, enumerable: true});
defineGlobal('ContentService', contentService);

// textOutputOf is what a web app serves for a TextOutput, or undefined for anything else.
function textOutputOf(v) {
  if (!(v instanceof TextOutput) || !hidden.has(v)) return undefined;
  var s = state(v);
  return {kind: 'text', mimeType: mimeTypes[s.mimeType], content: s.content, fileName: s.fileName || ''};
}
