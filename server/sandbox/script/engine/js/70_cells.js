// Cells of the sandbox's spreadsheets and A1 notation. A spreadsheet is the document
// sheet/<id>: {id, name, tz, nextSheetId, sheets: [{id, name, rows, cols, frozen, data}]},
// where data holds the rows that have content, each up to its last cell with content, and a
// cell is "" (empty), a string, a number, a boolean or {"d": ms} (a date).

var MAX_CELLS = 10000000;
var MAX_CELL_TEXT = 50000;

// cellIn converts a value a script writes as Sheets reads what a user types: numbers,
// percentages, TRUE/FALSE and dates in text become values; a leading ' keeps text as it is.
// Formulas are refused: the sandbox does not compute them.
function cellIn(v) {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) return isNaN(v.getTime()) ? '' : {d: v.getTime()};
  if (typeof v === 'number') {
    if (!isFinite(v)) throw exception('The Loupe sandbox\'s spreadsheets cannot hold ' + v + ': write a finite number.');
    return v;
  }
  if (typeof v === 'boolean') return v;
  var s = String(v);
  if (s.length > MAX_CELL_TEXT) throw exception('Your input contains more than the maximum of 50000 characters in a single cell.');
  if (s.charAt(0) === '\'') return s.slice(1);
  if (s.charAt(0) === '=' && s.length > 1) {
    throw exception('The Loupe sandbox\'s spreadsheets do not compute formulas (' + s.slice(0, 40) + '): write the values.');
  }
  var t = s.trim();
  if (/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(t)) return Number(t);
  if (/^[+-]?(\d+(\.\d*)?|\.\d+)%$/.test(t)) return Number(t.slice(0, -1)) / 100;
  if (/^(true|false)$/i.test(t)) return t.toLowerCase() === 'true';
  var m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(t) || /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(t);
  if (m) {
    var iso = t.indexOf('-') > 0;
    var y = Number(iso ? m[1] : m[3]), mo = Number(iso ? m[2] : m[1]), d = Number(iso ? m[3] : m[2]);
    var date = new Date(y, mo - 1, d);
    if (date.getFullYear() === y && date.getMonth() === mo - 1 && date.getDate() === d) return {d: date.getTime()};
  }
  return s;
}

// cellOut is the value getValues returns for a stored cell.
function cellOut(c) {
  if (c === undefined || c === null) return '';
  if (typeof c === 'object') return new Date(c.d);
  return c;
}

// columnName is the letters of column n (1 → A, 27 → AA).
function columnName(n) {
  var s = '';
  while (n > 0) {
    var r = (n - 1) % 26;
    s = String.fromCharCode(65 + r) + s;
    n = (n - 1 - r) / 26;
  }
  return s;
}

// columnNumber is the column of letters (A → 1).
function columnNumber(letters) {
  var n = 0;
  for (var i = 0; i < letters.length; i++) n = n * 26 + (letters.charCodeAt(i) - 64);
  return n;
}

// parseA1 reads "A1", "A1:C3", "A:C", "2:4", "A2:C" with an optional sheet name ("Sheet1!A1",
// "'My sheet'!A1") into {sheet, row, col, rows, cols}; an open end runs to the sheet's edge
// (maxRows, maxCols). It returns null when the text is not A1 notation.
function parseA1(text, maxRows, maxCols) {
  var m = /^(?:(?:'((?:[^']|'')+)'|([^!']+))!)?([A-Za-z]*)(\d*)(?::([A-Za-z]*)(\d*))?$/.exec(String(text).trim());
  if (!m) return null;
  var sheet = m[1] !== undefined ? m[1].replace(/''/g, '\'') : (m[2] !== undefined ? m[2] : null);
  var c1 = m[3].toUpperCase(), r1 = m[4], hasEnd = m[5] !== undefined || m[6] !== undefined;
  var c2 = hasEnd ? (m[5] || '').toUpperCase() : c1, r2 = hasEnd ? (m[6] || '') : r1;
  if (c1 === '' && r1 === '') return null;
  if (!hasEnd && (c1 === '' || r1 === '')) return null;
  var col = c1 === '' ? 1 : columnNumber(c1);
  var row = r1 === '' ? 1 : Number(r1);
  var endCol = c2 === '' ? maxCols : columnNumber(c2);
  var endRow = r2 === '' ? maxRows : Number(r2);
  if (row < 1 || col < 1 || endRow < 1 || endCol < 1) return null;
  return {sheet: sheet, row: Math.min(row, endRow), col: Math.min(col, endCol),
    rows: Math.abs(endRow - row) + 1, cols: Math.abs(endCol - col) + 1};
}

// a1 is the A1 notation of a range.
function a1(row, col, rows, cols) {
  var start = columnName(col) + row;
  return rows === 1 && cols === 1 ? start : start + ':' + columnName(col + cols - 1) + (row + rows - 1);
}

// trimData drops the empty cells at the end of each row and the empty rows at the end.
function trimData(data) {
  data.forEach(function (r) {
    while (r.length > 0 && r[r.length - 1] === '') r.pop();
  });
  while (data.length > 0 && data[data.length - 1].length === 0) data.pop();
}

// gridCells is how many cells a spreadsheet's sheets have (rows × columns).
function gridCells(doc) {
  return doc.sheets.reduce(function (n, s) { return n + s.rows * s.cols; }, 0);
}

// checkCells throws Sheets' error when doc would have more cells than a workbook may.
function checkCells(doc) {
  if (gridCells(doc) > MAX_CELLS) {
    throw exception('This action would increase the number of cells in the workbook above the limit of 10000000 cells.');
  }
}
