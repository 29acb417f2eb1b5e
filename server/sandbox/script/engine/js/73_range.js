// Range: a rectangle of cells of a sheet.

// rangeSheet returns the documents of a Range's state.
function rangeSheet(s) {
  return sheetOf({ss: s.ss, sheet: s.sheet});
}

// writeCells writes the converted values (rows × cols) at the range's corner.
function writeCells(s, x, values) {
  var data = x.sheet.data;
  for (var i = 0; i < s.rows; i++) {
    var r = s.row - 1 + i;
    while (data.length <= r) data.push([]);
    var row = data[r];
    for (var j = 0; j < s.cols; j++) {
      var c = s.col - 1 + j;
      while (row.length < c) row.push('');
      row[c] = values[i][j];
    }
  }
  trimData(data);
  changed(s.ss);
}

var Range = makeClass('Range', {
  getA1Notation: function () {
    var s = state(this, 'getA1Notation');
    return a1(s.row, s.col, s.rows, s.cols);
  },
  getRow: function () { return state(this, 'getRow').row; },
  getColumn: function () { return state(this, 'getColumn').col; },
  getRowIndex: function () { return state(this, 'getRowIndex').row; },
  getNumRows: function () { return state(this, 'getNumRows').rows; },
  getNumColumns: function () { return state(this, 'getNumColumns').cols; },
  getLastRow: function () { var s = state(this, 'getLastRow'); return s.row + s.rows - 1; },
  getLastColumn: function () { var s = state(this, 'getLastColumn'); return s.col + s.cols - 1; },
  getSheet: function () { var s = state(this, 'getSheet'); return make(Sheet, {ss: s.ss, sheet: s.sheet}); },
  getValues: function () {
    var s = state(this, 'getValues'), data = rangeSheet(s).sheet.data, out = [];
    for (var i = 0; i < s.rows; i++) {
      var row = data[s.row - 1 + i] || [], line = [];
      for (var j = 0; j < s.cols; j++) line.push(cellOut(row[s.col - 1 + j]));
      out.push(line);
    }
    return out;
  },
  getValue: function () {
    var s = state(this, 'getValue'), row = rangeSheet(s).sheet.data[s.row - 1] || [];
    return cellOut(row[s.col - 1]);
  },
  setValues: function (values) {
    need('Range.setValues', arguments, 1, [Array]);
    var s = state(this, 'setValues');
    values.forEach(function (r) {
      if (!Array.isArray(r)) throw badArguments('Range.setValues', [values]);
    });
    if (values.length !== s.rows) {
      throw exception('The number of rows in the data does not match the number of rows in the range. The data has ' +
        values.length + ' but the range has ' + s.rows + '.');
    }
    values.forEach(function (r) {
      if (r.length !== s.cols) {
        throw exception('The number of columns in the data does not match the number of columns in the range. The data has ' +
          r.length + ' but the range has ' + s.cols + '.');
      }
    });
    writeCells(s, rangeSheet(s), values.map(function (r) { return r.map(cellIn); }));
    return this;
  },
  setValue: function (value) {
    need('Range.setValue', arguments, 1);
    var s = state(this, 'setValue'), v = cellIn(value), values = [];
    for (var i = 0; i < s.rows; i++) {
      var row = [];
      for (var j = 0; j < s.cols; j++) row.push(v);
      values.push(row);
    }
    writeCells(s, rangeSheet(s), values);
    return this;
  },
  clear: function () { return this.clearContent(); },
  clearContent: function () {
    var s = state(this, 'clearContent'), values = [];
    for (var i = 0; i < s.rows; i++) {
      var row = [];
      for (var j = 0; j < s.cols; j++) row.push('');
      values.push(row);
    }
    writeCells(s, rangeSheet(s), values);
    return this;
  },
  getCell: function (row, column) {
    need('Range.getCell', arguments, 2, ['number', 'number']);
    var s = state(this, 'getCell');
    if (row < 1 || column < 1 || row > s.rows || column > s.cols) throw exception('Cell reference out of range');
    return make(Range, {ss: s.ss, sheet: s.sheet, row: s.row + row - 1, col: s.col + column - 1, rows: 1, cols: 1});
  },
  offset: function (rowOffset, columnOffset, numRows, numColumns) {
    need('Range.offset', arguments, 2);
    integerArgs('Range.offset', arguments);
    var s = state(this, 'offset');
    return rangeOf({ss: s.ss, sheet: s.sheet}, rangeSheet(s).sheet, s.row + rowOffset, s.col + columnOffset,
      numRows === undefined ? s.rows : numRows, numColumns === undefined ? s.cols : numColumns);
  },
  isBlank: function () {
    return this.getValues().every(function (r) { return r.every(function (c) { return c === ''; }); });
  }
});
