package engine

import (
	"strings"
	"testing"
	"time"
)

// TestSpreadsheetApp checks the spreadsheets against Apps Script's documentation: create,
// openById across runs, sheets (getSheets, getSheetByName, insertSheet), ranges by A1 and by
// row and column, get/setValues, get/setValue, getLastRow/getLastColumn, appendRow,
// getDataRange, the values Sheets makes of text, and the errors.
func TestSpreadsheetApp(t *testing.T) {
	host := newMemHost()
	r := runJS(t, host, "Europe/London", `function f() {
  var ss = SpreadsheetApp.create('Budget');
  return [ss.getId(), ss.getName(), ss.getUrl() === 'https://docs.google.com/spreadsheets/d/' + ss.getId() + '/edit',
    ss.getSheets().length, ss.getSheets()[0].getName(), ss.getSheets()[0].getMaxRows(), ss.getSheets()[0].getMaxColumns(), String(ss)];
}`, "f")
	parts := strings.SplitN(outcome(r), ",", 2)
	id := strings.Trim(strings.TrimPrefix(parts[0], "["), `"`)
	if len(id) != 44 || parts[1] != `"Budget",true,1,"Sheet1",1000,26,"Spreadsheet"]` {
		t.Fatalf("create: got %s", outcome(r))
	}
	open := "var ss = SpreadsheetApp.openById('" + id + "'); var sh = ss.getSheetByName('Sheet1');\n"
	runCases(t, host, "Europe/London", []serviceCase{
		{"empty sheet", open + `return [sh.getLastRow(), sh.getLastColumn(), sh.getDataRange().getA1Notation(), sh.getRange('A1').getValue()];`, `[0,0,"A1",""]`},
		{"appendRow", open + `var same = sh.appendRow(['Item', 'Qty', 'Paid']) === sh;
sh.appendRow(['pen', '3', 'TRUE']).appendRow(['ink', 2.5, false]);
return [same, sh.getLastRow(), sh.getLastColumn(), sh.getDataRange().getA1Notation()];`, `[true,3,3,"A1:C3"]`},
		{"getValues", open + `return sh.getRange('A1:C3').getValues();`, `[["Item","Qty","Paid"],["pen",3,true],["ink",2.5,false]]`},
		{"getRange by row and column", open + `var r = sh.getRange(2, 1, 2, 2);
return [r.getA1Notation(), r.getValues(), r.getRow(), r.getColumn(), r.getNumRows(), r.getNumColumns(), sh.getRange(3, 2).getValue()];`,
			`["A2:B3",[["pen",3],["ink",2.5]],2,1,2,2,2.5]`},
		{"setValues", open + `var r = sh.getRange('D1:E2');
return [r.setValues([['Total', 'When'], [7.5, new Date(2026, 10, 20)]]) === r, sh.getRange('D2:E2').getValues()[0][1] instanceof Date,
  sh.getLastColumn(), sh.getRange('E2').getValue().getTime() === new Date(2026, 10, 20).getTime()];`, `[true,true,5,true]`},
		{"setValue fills the range", open + `sh.getRange('F1:F2').setValue('x'); return sh.getRange('F1:F3').getValues();`, `[["x"],["x"],[""]]`},
		{"text as Sheets reads it", open + `sh.getRange('A5:F5').setValues([['42', '5%', 'false', '2026-11-20', "'007", 'n/a']]);
var v = sh.getRange('A5:F5').getValues()[0];
return [v[0], v[1], v[2], v[3] instanceof Date, v[4], v[5]];`, `[42,0.05,false,true,"007","n/a"]`},
		{"whole column", open + `return sh.getRange('B:B').getNumRows();`, `1000`},
		{"named sheet in A1", open + `return ss.getRange('Sheet1!A2').getValue();`, `"pen"`},
		{"insertSheet", `var ss = SpreadsheetApp.openById('` + id + `');
var s2 = ss.insertSheet('Notes');
return [s2.getName(), s2.getIndex(), ss.getSheets().map(function (s) { return s.getName(); }), ss.getSheetByName('Nope'), ss.insertSheet().getName()];`,
			`["Notes",2,["Sheet1","Notes"],null,"Sheet3"]`},
		{"kept across runs", `return SpreadsheetApp.openById('` + id + `').getSheetByName('Notes').getIndex();`, `2`},
		{"duplicate sheet", `SpreadsheetApp.openById('` + id + `').insertSheet('notes');`, `Exception: A sheet with the name "notes" already exists. Please enter another name.`},
		{"rows mismatch", open + `sh.getRange('A1:B3').setValues([[1, 2]]);`,
			`Exception: The number of rows in the data does not match the number of rows in the range. The data has 1 but the range has 3.`},
		{"columns mismatch", open + `sh.getRange('A1:B1').setValues([[1, 2, 3]]);`,
			`Exception: The number of columns in the data does not match the number of columns in the range. The data has 3 but the range has 2.`},
		{"outside the sheet", open + `sh.getRange(1001, 1);`, `Exception: The coordinates of the range are outside the dimensions of the sheet.`},
		{"row too small", open + `sh.getRange(0, 1);`, `Exception: The starting row of the range is too small.`},
		{"bad A1", open + `sh.getRange('A1:?');`, `Exception: Range not found`},
		{"no arguments", open + `sh.getRange();`, `Exception: The parameters () don't match the method signature for Sheet.getRange.`},
		{"formula", open + `sh.getRange('A1').setValue('=SUM(B2:B3)');`, `Exception: The Loupe sandbox's spreadsheets do not compute formulas (=SUM(B2:B3)): write the values.`},
		{"unknown id", `SpreadsheetApp.openById('1nope');`, `Exception: Unexpected error while getting the method or property openById on object SpreadsheetApp.`},
		{"standalone has no active", `return [SpreadsheetApp.getActive(), SpreadsheetApp.getActiveSheet()];`, `[null,null]`},
		{"no UI", `SpreadsheetApp.getUi();`, `Exception: Cannot call SpreadsheetApp.getUi() from this context.`},
	})
}

// TestBoundSpreadsheet checks the spreadsheet a bound script has as its active one: made the
// first time it is opened, named after the project, kept for the next runs.
func TestBoundSpreadsheet(t *testing.T) {
	host := newMemHost()
	job := func(body string) Job {
		return Job{Files: []File{{Name: "Code", Type: "SERVER_JS", Source: "function f() {\n" + body + "\n}\n"}}, Function: "f",
			User: "a@b.c", ScriptID: "1script", Title: "Invoice mailer", ParentID: "1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms",
			TimeZone: "UTC", Limits: Limits{Timeout: 5 * time.Second}}
	}
	r := Run(job(`var ss = SpreadsheetApp.getActiveSpreadsheet();
SpreadsheetApp.getActiveSheet().appendRow(['INV-1001', 120]);
return [ss.getId(), ss.getName(), SpreadsheetApp.getActive().getActiveSheet().getName()];`), host)
	if got := outcome(r); got != `["1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms","Invoice mailer","Sheet1"]` {
		t.Errorf("first run: got %s", got)
	}
	if err := host.apply(r.Changes); err != nil {
		t.Fatal(err)
	}
	if got := outcome(Run(job(`return SpreadsheetApp.getActiveSheet().getDataRange().getValues();`), host)); got != `[["INV-1001",120]]` {
		t.Errorf("second run: got %s", got)
	}
}
