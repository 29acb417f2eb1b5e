// Sheet: one sheet of a spreadsheet; found by its id each time, so that a renamed or moved
// sheet is still the same object.

// sheetOf returns the spreadsheet document and the sheet document of a Sheet's state.
function sheetOf(s) {
  var doc = sheetDoc(s.ss);
  var sheet = doc.sheets.filter(function (x) { return x.id === s.sheet; })[0];
  if (!sheet) throw exception('The sheet has been deleted.');
  return {doc: doc, sheet: sheet};
}

// lastRow and lastColumn are the last row and column with content (0 when empty).
function lastRow(sheet) {
  return sheet.data.length;
}

function lastColumn(sheet) {
  return sheet.data.reduce(function (n, r) { return Math.max(n, r.length); }, 0);
}

// rangeOf is a Range of the sheet of s, checked against the sheet's dimensions.
function rangeOf(s, sheet, row, col, rows, cols) {
  if (row < 1) throw exception('The starting row of the range is too small.');
  if (col < 1) throw exception('The starting column of the range is too small.');
  if (rows < 1) throw exception('The number of rows in the range must be at least 1.');
  if (cols < 1) throw exception('The number of columns in the range must be at least 1.');
  if (row + rows - 1 > sheet.rows || col + cols - 1 > sheet.cols) {
    throw exception('The coordinates of the range are outside the dimensions of the sheet.');
  }
  return make(Range, {ss: s.ss, sheet: s.sheet, row: row, col: col, rows: rows, cols: cols});
}

// integerArgs checks that the arguments are whole numbers.
function integerArgs(method, args) {
  for (var i = 0; i < args.length; i++) {
    if (typeof args[i] !== 'number' || !isFinite(args[i])) throw badArguments(method, args);
  }
}

var Sheet = makeClass('Sheet', {
  getName: function () { return sheetOf(state(this, 'getName')).sheet.name; },
  setName: function (name) {
    need('Sheet.setName', arguments, 1, ['string']);
    var s = state(this, 'setName'), x = sheetOf(s);
    if (x.doc.sheets.some(function (o) { return o !== x.sheet && o.name.toLowerCase() === name.toLowerCase(); })) {
      throw exception('A sheet with the name "' + name + '" already exists. Please enter another name.');
    }
    x.sheet.name = name;
    changed(s.ss);
    return this;
  },
  getSheetId: function () { return state(this, 'getSheetId').sheet; },
  getIndex: function () {
    var x = sheetOf(state(this, 'getIndex'));
    return x.doc.sheets.indexOf(x.sheet) + 1;
  },
  getParent: function () { return make(Spreadsheet, {id: state(this, 'getParent').ss}); },
  activate: function () {
    var s = state(this, 'activate');
    activeSheets[s.ss] = s.sheet;
    return this;
  },
  getMaxRows: function () { return sheetOf(state(this, 'getMaxRows')).sheet.rows; },
  getMaxColumns: function () { return sheetOf(state(this, 'getMaxColumns')).sheet.cols; },
  getLastRow: function () { return lastRow(sheetOf(state(this, 'getLastRow')).sheet); },
  getLastColumn: function () { return lastColumn(sheetOf(state(this, 'getLastColumn')).sheet); },
  getFrozenRows: function () { return sheetOf(state(this, 'getFrozenRows')).sheet.frozen; },
  setFrozenRows: function (rows) {
    need('Sheet.setFrozenRows', arguments, 1, ['number']);
    var s = state(this, 'setFrozenRows');
    sheetOf(s).sheet.frozen = rows;
    changed(s.ss);
  },
  getRange: function (a, b, c, d) {
    var s = state(this, 'getRange'), sheet = sheetOf(s).sheet;
    if (typeof a === 'string' && arguments.length === 1) {
      var r = parseA1(a, sheet.rows, sheet.cols);
      if (r === null || (r.sheet !== null && r.sheet !== sheet.name)) throw exception('Range not found');
      return rangeOf(s, sheet, r.row, r.col, r.rows, r.cols);
    }
    if (arguments.length < 2 || arguments.length > 4) throw badArguments('Sheet.getRange', arguments);
    integerArgs('Sheet.getRange', arguments);
    return rangeOf(s, sheet, a, b, c === undefined ? 1 : c, d === undefined ? 1 : d);
  },
  getDataRange: function () {
    var s = state(this, 'getDataRange'), sheet = sheetOf(s).sheet;
    return rangeOf(s, sheet, 1, 1, Math.max(lastRow(sheet), 1), Math.max(lastColumn(sheet), 1));
  },
  getSheetValues: function (startRow, startColumn, numRows, numColumns) {
    need('Sheet.getSheetValues', arguments, 4);
    integerArgs('Sheet.getSheetValues', arguments);
    var s = state(this, 'getSheetValues'), sheet = sheetOf(s).sheet;
    if (numRows === -1) numRows = Math.max(lastRow(sheet) - startRow + 1, 1);
    if (numColumns === -1) numColumns = Math.max(lastColumn(sheet) - startColumn + 1, 1);
    return rangeOf(s, sheet, startRow, startColumn, numRows, numColumns).getValues();
  },
  appendRow: function (rowContents) {
    need('Sheet.appendRow', arguments, 1, [Array]);
    var s = state(this, 'appendRow'), x = sheetOf(s);
    var row = rowContents.map(cellIn);
    trimData([row]);
    if (row.length === 0) return this;
    x.sheet.data.push(row);
    if (x.sheet.data.length > x.sheet.rows) x.sheet.rows = x.sheet.data.length;
    if (row.length > x.sheet.cols) x.sheet.cols = row.length;
    checkCells(x.doc);
    changed(s.ss);
    return this;
  },
  clear: function () {
    var s = state(this, 'clear');
    sheetOf(s).sheet.data = [];
    changed(s.ss);
    return this;
  },
  clearContents: function () { return this.clear(); },
  deleteRow: function (rowPosition) {
    need('Sheet.deleteRow', arguments, 1, ['number']);
    return this.deleteRows(rowPosition, 1);
  },
  deleteRows: function (rowPosition, howMany) {
    need('Sheet.deleteRows', arguments, 2, ['number', 'number']);
    var s = state(this, 'deleteRows'), sheet = sheetOf(s).sheet;
    if (rowPosition < 1 || howMany < 1 || rowPosition + howMany - 1 > sheet.rows) {
      throw exception('Those rows are out of bounds.');
    }
    if (howMany >= sheet.rows) throw exception('You can\'t delete all the rows on the sheet.');
    sheet.data.splice(rowPosition - 1, howMany);
    sheet.rows -= howMany;
    trimData(sheet.data);
    changed(s.ss);
    return this;
  },
  insertRowBefore: function (beforePosition) {
    need('Sheet.insertRowBefore', arguments, 1, ['number']);
    return this.insertRowsBefore(beforePosition, 1);
  },
  insertRowAfter: function (afterPosition) {
    need('Sheet.insertRowAfter', arguments, 1, ['number']);
    return this.insertRowsBefore(afterPosition + 1, 1);
  },
  insertRowsBefore: function (beforePosition, howMany) {
    need('Sheet.insertRowsBefore', arguments, 2, ['number', 'number']);
    var s = state(this, 'insertRowsBefore'), x = sheetOf(s);
    if (beforePosition < 1 || beforePosition > x.sheet.rows + 1 || howMany < 1) throw exception('Those rows are out of bounds.');
    if (beforePosition <= x.sheet.data.length) {
      var empty = [];
      for (var i = 0; i < howMany; i++) empty.push([]);
      Array.prototype.splice.apply(x.sheet.data, [beforePosition - 1, 0].concat(empty));
    }
    x.sheet.rows += howMany;
    checkCells(x.doc);
    changed(s.ss);
    return this;
  }
});
