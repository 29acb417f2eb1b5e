// SpreadsheetApp and Spreadsheet: the user's spreadsheets, kept in the user's state. A script
// bound to a spreadsheet (the project's parentId) has it as its active spreadsheet; it starts
// empty (one sheet, Sheet1) the first time a script opens it.

var active = {spreadsheet: null}; // this run's active spreadsheet (the bound one, or one set)
var activeSheets = Object.create(null); // spreadsheet id -> this run's active sheet id

// sheetDoc returns the document of spreadsheet id (throwing what openById throws without one).
function sheetDoc(id) {
  var doc = readDoc('sheet/' + id);
  if (doc === null) throw exception('Unexpected error while getting the method or property openById on object SpreadsheetApp.');
  return doc;
}

// changed marks spreadsheet id as written.
function changed(id) {
  putDoc('sheet/' + id, docs['sheet/' + id]);
}

// newSheet is a sheet document.
function newSheet(doc, name, rows, cols) {
  return {id: doc.nextSheetId++, name: name, rows: rows || 1000, cols: cols || 26, frozen: 0, data: []};
}

// openSpreadsheet is the Spreadsheet object of id.
function openSpreadsheet(id) {
  sheetDoc(id);
  return make(Spreadsheet, {id: id});
}

// boundSpreadsheet is the spreadsheet the script is bound to, made when first opened.
function boundSpreadsheet() {
  if (!job.parentId) return null;
  var key = 'sheet/' + job.parentId;
  if (readDoc(key) === null) {
    var doc = {id: job.parentId, name: job.title, tz: job.timeZone, nextSheetId: 0, sheets: []};
    doc.sheets.push(newSheet(doc, 'Sheet1'));
    putDoc(key, doc);
  }
  return make(Spreadsheet, {id: job.parentId});
}

// activeSheetOf returns the id of the active sheet of the spreadsheet document.
function activeSheetOf(doc) {
  var id = activeSheets[doc.id];
  if (id === undefined || !doc.sheets.some(function (s) { return s.id === id; })) id = doc.sheets[0].id;
  return id;
}

var Spreadsheet = makeClass('Spreadsheet', {
  getId: function () { return state(this, 'getId').id; },
  getName: function () { return sheetDoc(state(this, 'getName').id).name; },
  rename: function (newName) {
    need('Spreadsheet.rename', arguments, 1, ['string']);
    var id = state(this, 'rename').id;
    sheetDoc(id).name = newName;
    changed(id);
  },
  getUrl: function () { return 'https://docs.google.com/spreadsheets/d/' + state(this, 'getUrl').id + '/edit'; },
  getSpreadsheetTimeZone: function () { return sheetDoc(state(this, 'getSpreadsheetTimeZone').id).tz; },
  setSpreadsheetTimeZone: function (timezone) {
    need('Spreadsheet.setSpreadsheetTimeZone', arguments, 1, ['string']);
    if (!native.validZone(timezone)) throw exception('Invalid argument: timezone');
    var id = state(this, 'setSpreadsheetTimeZone').id;
    sheetDoc(id).tz = timezone;
    changed(id);
  },
  getSheets: function () {
    var id = state(this, 'getSheets').id;
    return sheetDoc(id).sheets.map(function (s) { return make(Sheet, {ss: id, sheet: s.id}); });
  },
  getNumSheets: function () { return sheetDoc(state(this, 'getNumSheets').id).sheets.length; },
  getSheetByName: function (name) {
    need('Spreadsheet.getSheetByName', arguments, 1, ['string']);
    var id = state(this, 'getSheetByName').id;
    var s = sheetDoc(id).sheets.filter(function (x) { return x.name === name; })[0];
    return s ? make(Sheet, {ss: id, sheet: s.id}) : null;
  },
  getSheetById: function (sheetId) {
    var id = state(this, 'getSheetById').id;
    var s = sheetDoc(id).sheets.filter(function (x) { return x.id === sheetId; })[0];
    return s ? make(Sheet, {ss: id, sheet: s.id}) : null;
  },
  insertSheet: function () {
    var id = state(this, 'insertSheet').id, doc = sheetDoc(id), args = arguments;
    var name = null, index = doc.sheets.length;
    if (typeof args[0] === 'string') {
      name = args[0];
      if (typeof args[1] === 'number') index = args[1];
    } else if (typeof args[0] === 'number') {
      index = args[0];
    } else if (args.length > 0 && args[0] !== undefined) {
      throw badArguments('Spreadsheet.insertSheet', args);
    }
    if (index < 0 || index > doc.sheets.length) throw exception('Invalid argument: sheetIndex');
    if (name === null) {
      for (var n = doc.sheets.length + 1; name === null; n++) {
        if (!doc.sheets.some(function (s) { return s.name === 'Sheet' + n; })) name = 'Sheet' + n;
      }
    }
    if (doc.sheets.some(function (s) { return s.name.toLowerCase() === name.toLowerCase(); })) {
      throw exception('A sheet with the name "' + name + '" already exists. Please enter another name.');
    }
    var s = newSheet(doc, name);
    doc.sheets.splice(index, 0, s);
    checkCells(doc);
    changed(id);
    activeSheets[id] = s.id;
    return make(Sheet, {ss: id, sheet: s.id});
  },
  deleteSheet: function (sheet) {
    need('Spreadsheet.deleteSheet', arguments, 1, [Sheet]);
    var id = state(this, 'deleteSheet').id, doc = sheetDoc(id), sid = state(sheet, 'deleteSheet').sheet;
    var i = doc.sheets.findIndex(function (s) { return s.id === sid; });
    if (i < 0) throw exception('The sheet has been deleted.');
    if (doc.sheets.length === 1) throw exception('You can\'t remove all the sheets in a document.');
    doc.sheets.splice(i, 1);
    changed(id);
  },
  getActiveSheet: function () {
    var id = state(this, 'getActiveSheet').id;
    return make(Sheet, {ss: id, sheet: activeSheetOf(sheetDoc(id))});
  },
  setActiveSheet: function (sheet) {
    need('Spreadsheet.setActiveSheet', arguments, 1, [Sheet]);
    activeSheets[state(this, 'setActiveSheet').id] = state(sheet, 'setActiveSheet').sheet;
    return sheet;
  },
  getRange: function (a1Notation) {
    need('Spreadsheet.getRange', arguments, 1, ['string']);
    var id = state(this, 'getRange').id, doc = sheetDoc(id);
    var sheetName = parseA1(a1Notation, 1, 1);
    var sheet = this.getActiveSheet();
    if (sheetName && sheetName.sheet !== null) {
      sheet = this.getSheetByName(sheetName.sheet);
      if (sheet === null) throw exception('Range not found');
    }
    return sheet.getRange(a1Notation);
  },
  getDataRange: function () { return this.getActiveSheet().getDataRange(); },
  getLastRow: function () { return this.getActiveSheet().getLastRow(); },
  getLastColumn: function () { return this.getActiveSheet().getLastColumn(); },
  appendRow: function (rowContents) {
    this.getActiveSheet().appendRow.apply(this.getActiveSheet(), arguments);
    return this.getActiveSheet();
  },
  toast: function () {}
});

var SpreadsheetApp = makeClass('SpreadsheetApp', {
  create: function (name, rows, columns) {
    need('SpreadsheetApp.create', arguments, 1, ['string', 'number', 'number']);
    if (arguments.length === 2) throw badArguments('SpreadsheetApp.create', arguments);
    if (rows !== undefined && (rows < 1 || columns < 1)) throw exception('Invalid argument: rows');
    var id = native.newId();
    var doc = {id: id, name: name, tz: job.timeZone, nextSheetId: 0, sheets: []};
    doc.sheets.push(newSheet(doc, 'Sheet1', rows, columns));
    checkCells(doc);
    docs['sheet/' + id] = doc;
    changed(id);
    return make(Spreadsheet, {id: id});
  },
  openById: function (id) {
    need('SpreadsheetApp.openById', arguments, 1, ['string']);
    if (!/^[\w-]+$/.test(id)) throw exception('Unexpected error while getting the method or property openById on object SpreadsheetApp.');
    return openSpreadsheet(id);
  },
  openByUrl: function (url) {
    need('SpreadsheetApp.openByUrl', arguments, 1, ['string']);
    var m = /\/spreadsheets\/d\/([\w-]+)/.exec(url);
    if (!m || readDoc('sheet/' + m[1]) === null) throw exception('Unexpected error while getting the method or property openByUrl on object SpreadsheetApp.');
    return make(Spreadsheet, {id: m[1]});
  },
  getActive: function () { return active.spreadsheet || (active.spreadsheet = boundSpreadsheet()); },
  getActiveSpreadsheet: function () { return this.getActive(); },
  setActiveSpreadsheet: function (spreadsheet) {
    need('SpreadsheetApp.setActiveSpreadsheet', arguments, 1, [Spreadsheet]);
    active.spreadsheet = spreadsheet;
  },
  getActiveSheet: function () {
    var ss = this.getActive();
    return ss === null ? null : ss.getActiveSheet();
  },
  setActiveSheet: function (sheet) {
    need('SpreadsheetApp.setActiveSheet', arguments, 1, [Sheet]);
    activeSheets[state(sheet, 'setActiveSheet').ss] = state(sheet, 'setActiveSheet').sheet;
    return sheet;
  },
  getActiveRange: function () { return null; },
  flush: function () { commit(); },
  getUi: function () { throw exception('Cannot call SpreadsheetApp.getUi() from this context.'); }
});
defineGlobal('SpreadsheetApp', make(SpreadsheetApp, {}));
