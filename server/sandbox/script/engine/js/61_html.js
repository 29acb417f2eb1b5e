// HtmlService: HTML a web app serves (HtmlOutput), from a string, a project HTML file or a
// template whose scriptlets run in the project's scope: <? code ?>, <?= printed, escaped ?>,
// <?!= printed as it is ?>. Printing escapes for HTML text and attributes; Apps Script also
// escapes for a script's context, which the sandbox does not tell apart.

var FunctionCtor = Function;
var SandboxMode = makeEnum('SandboxMode', ['EMULATED', 'IFRAME', 'NATIVE']);
var XFrameOptionsMode = makeEnum('XFrameOptionsMode', ['ALLOWALL', 'DEFAULT']);
var metaNames = ['apple-mobile-web-app-capable', 'mobile-web-app-capable', 'viewport'];

// escapeHtml escapes text for HTML.
function escapeHtml(s) {
  return String(s).replace(/[&<>"']/g, function (c) {
    return {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\'': '&#39;'}[c];
  });
}

// htmlFile is the source of the project's HTML file name.
function htmlFile(name) {
  name = String(name).replace(/\.html$/, '');
  if (!Object.prototype.hasOwnProperty.call(job.html, name)) throw exception('No HTML file named ' + name + ' was found.');
  return job.html[name];
}

var HtmlOutputMetaTag = makeClass('HtmlOutputMetaTag', {
  getName: function () { return state(this, 'getName').name; },
  getContent: function () { return state(this, 'getContent').content; }
});

// setter returns a chainable method that stores its argument as field of the state.
function setter(method, field, conv) {
  return function (v) {
    need('HtmlOutput.' + method, arguments, 1);
    state(this, method)[field] = conv(v);
    return this;
  };
}

var HtmlOutput = makeClass('HtmlOutput', {
  addMetaTag: function (name, content) {
    need('HtmlOutput.addMetaTag', arguments, 2, ['string', 'string']);
    if (metaNames.indexOf(name) < 0) throw exception('Invalid argument: name');
    state(this, 'addMetaTag').meta.push([name, content]);
    return this;
  },
  append: function (addedContent) {
    state(this, 'append').content += addedContent === undefined || addedContent === null ? '' : String(addedContent);
    return this;
  },
  appendUntrusted: function (addedContent) {
    state(this, 'appendUntrusted').content += addedContent === undefined || addedContent === null ? '' : escapeHtml(addedContent);
    return this;
  },
  asTemplate: function () { return newTemplate(state(this, 'asTemplate').content); },
  clear: function () { state(this, 'clear').content = ''; return this; },
  getAs: function (contentType) { return this.getBlob().getAs(contentType); },
  getBlob: function () {
    var s = state(this, 'getBlob');
    return newBlob(s.content, 'text/html', s.title || null);
  },
  getContent: function () { return state(this, 'getContent').content; },
  getFaviconUrl: function () { return state(this, 'getFaviconUrl').favicon; },
  getHeight: function () { return state(this, 'getHeight').height; },
  getMetaTags: function () {
    return state(this, 'getMetaTags').meta.map(function (m) { return make(HtmlOutputMetaTag, {name: m[0], content: m[1]}); });
  },
  getTitle: function () { return state(this, 'getTitle').title; },
  getWidth: function () { return state(this, 'getWidth').width; },
  setContent: setter('setContent', 'content', String),
  setFaviconUrl: setter('setFaviconUrl', 'favicon', String),
  setHeight: setter('setHeight', 'height', Number),
  setWidth: setter('setWidth', 'width', Number),
  setTitle: setter('setTitle', 'title', String),
  setSandboxMode: setter('setSandboxMode', 'sandbox', enumName),
  setXFrameOptionsMode: setter('setXFrameOptionsMode', 'xframe', enumName)
});

// newOutput is a new HtmlOutput holding html.
function newOutput(html) {
  return make(HtmlOutput, {content: html, title: '', favicon: null, width: 600, height: 400, meta: [], sandbox: 'IFRAME', xframe: 'DEFAULT'});
}

// templateCode turns a template into the body of a function of output (the HtmlOutput).
function templateCode(src) {
  var code = '', last = 0, m;
  var re = /<\?(!=|=)?([\s\S]*?)\?>/g;
  while ((m = re.exec(src)) !== null) {
    if (m.index > last) code += 'output.append(' + JSON.stringify(src.slice(last, m.index)) + ');\n';
    var body = m[2].trim().replace(/;+\s*$/, '');
    if (m[1] === '=') code += 'output.appendUntrusted(' + body + ');\n';
    else if (m[1] === '!=') code += 'output.append(' + body + ');\n';
    else code += m[2] + '\n';
    last = re.lastIndex;
  }
  if (last < src.length) code += 'output.append(' + JSON.stringify(src.slice(last)) + ');\n';
  return code;
}

var HtmlTemplate = makeClass('HtmlTemplate', {
  evaluate: function () {
    var s = state(this, 'evaluate');
    var fn = new FunctionCtor('output', 'with (this) {\n' + templateCode(s.source) + '}\nreturn output;');
    return fn.call(this, newOutput(''));
  },
  getCode: function () { return templateCode(state(this, 'getCode').source); },
  getCodeWithComments: function () { return templateCode(state(this, 'getCodeWithComments').source); },
  getRawContent: function () { return state(this, 'getRawContent').source; }
});

// newTemplate is a new HtmlTemplate of source.
function newTemplate(source) {
  return make(HtmlTemplate, {source: String(source)});
}

// htmlSource reads an HTML argument: a string or a Blob.
function htmlSource(method, args) {
  if (args.length === 0) return '';
  var v = args[0];
  if (v !== null && typeof v === 'object' && hidden.has(v) && String(v) === 'Blob') return v.getDataAsString();
  if (typeof v !== 'string') throw badArguments(method, args);
  return v;
}

var HtmlService = makeClass('HtmlService', {
  createHtmlOutput: function (html) { return newOutput(htmlSource('HtmlService.createHtmlOutput', arguments)); },
  createHtmlOutputFromFile: function (filename) {
    need('HtmlService.createHtmlOutputFromFile', arguments, 1, ['string']);
    return newOutput(htmlFile(filename));
  },
  createTemplate: function (html) {
    need('HtmlService.createTemplate', arguments, 1);
    return newTemplate(htmlSource('HtmlService.createTemplate', arguments));
  },
  createTemplateFromFile: function (filename) {
    need('HtmlService.createTemplateFromFile', arguments, 1, ['string']);
    return newTemplate(htmlFile(filename));
  },
  getUserAgent: function () { return 'Mozilla/5.0 (Loupe sandbox)'; }
});
var htmlService = make(HtmlService, {});
Object.defineProperty(htmlService, 'SandboxMode', {value: SandboxMode, enumerable: true});
Object.defineProperty(htmlService, 'XFrameOptionsMode', {value: XFrameOptionsMode, enumerable: true});
defineGlobal('HtmlService', htmlService);

// htmlOutputOf is what a web app serves for an HtmlOutput, or undefined for anything else.
function htmlOutputOf(v) {
  if (!(v instanceof HtmlOutput) || !hidden.has(v)) return undefined;
  var s = state(v);
  return {kind: 'html', mimeType: 'text/html', content: s.content, title: s.title, faviconUrl: s.favicon || '', meta: s.meta};
}
