package pagination

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"
)

// send sends method target with a body of the content type to h.
func send(h http.Handler, method, target, ctype, body string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, target, strings.NewReader(body))
	if ctype != "" {
		r.Header.Set("Content-Type", ctype)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

const jsonType = "application/json"

func TestInsert(t *testing.T) {
	h := mounted(Options{})
	w := send(h, http.MethodPost, base+"/items/", jsonType, `{"name": "Fresh", "id": 7}`)
	if w.Code != http.StatusCreated {
		t.Fatalf("status: got %d %s; want 201", w.Code, w.Body)
	}
	var it Item
	if err := json.Unmarshal(w.Body.Bytes(), &it); err != nil {
		t.Fatal(err)
	}
	if it.ID != 96 || it.Name != "Fresh" || time.Since(it.Created) > time.Minute {
		t.Errorf("item: got %+v; want id 96 (id is read-only), name Fresh, created now", it)
	}
	first := getPage(t, h, base+CursorPath, nil)
	if first.Results[0].ID != 96 {
		t.Errorf("cursor list: got %v first; want the new item, the newest", ids(first.Results))
	}
	// An explicit time places the item in the ordering; form bodies work too.
	w = send(h, http.MethodPost, base+"/items/", "application/x-www-form-urlencoded", "name=Old&created=2026-01-05T22:00:00Z")
	if w.Code != http.StatusCreated {
		t.Fatalf("form insert: got %d %s; want 201", w.Code, w.Body)
	}
	p := getPage(t, h, base+LimitOffsetPath+"?ordering=created&limit=7", nil)
	if got, want := ids(p.Results), []int{1, 2, 3, 4, 5, 97, 6}; !reflect.DeepEqual(got, want) || *p.Count != 97 {
		t.Errorf("by created: got %v (count %d); want %v (count 97)", got, *p.Count, want)
	}
	// Delete, then reset.
	if w := send(h, http.MethodDelete, base+"/items/5/", "", ""); w.Code != http.StatusNoContent {
		t.Errorf("delete: got %d %s; want 204", w.Code, w.Body)
	}
	if w := send(h, http.MethodDelete, base+"/items/5/", "", ""); w.Code != 404 || w.Body.String() != `{"detail":"No Item matches the given query."}` {
		t.Errorf("delete again: got %d %s; want 404 No Item matches the given query.", w.Code, w.Body)
	}
	if w := send(h, http.MethodDelete, base+"/items/x/", "", ""); w.Code != 404 || w.Body.String() != `{"detail":"Not found."}` {
		t.Errorf("delete x: got %d %s; want 404 Not found.", w.Code, w.Body)
	}
	if w := send(h, http.MethodPost, base+"/items/reset/", "", ""); w.Code != http.StatusNoContent {
		t.Errorf("reset: got %d; want 204", w.Code)
	}
	if p := getPage(t, h, base+PageNumberPath, nil); *p.Count != 95 || p.Results[4].ID != 5 {
		t.Errorf("after reset: count %d, %v; want the 95 documented items", *p.Count, ids(p.Results))
	}
}

// TestInsertBadInput wants DRF's error for each bad insert, and no change.
func TestInsertBadInput(t *testing.T) {
	formats := `"Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z]."`
	tests := []struct {
		name, ctype, body string
		wantStatus        int
		wantBody          string
	}{
		{"no content type", "", `{"name":"x"}`, 415, `{"detail":"Unsupported media type \"\" in request."}`},
		{"text", "text/plain", `{"name":"x"}`, 415, `{"detail":"Unsupported media type \"text/plain\" in request."}`},
		{"malformed JSON", jsonType, `{"name": }`, 400, `{"detail":"JSON parse error - Expecting value: line 1 column 10 (char 9)"}`},
		{"a list", jsonType, `[{"name":"x"}]`, 400, `{"non_field_errors":["Invalid data. Expected a dictionary, but got list."]}`},
		{"a string", jsonType, `"x"`, 400, `{"non_field_errors":["Invalid data. Expected a dictionary, but got str."]}`},
		{"empty object", jsonType, `{}`, 400, `{"name":["This field is required."]}`},
		{"empty body", jsonType, ``, 400, `{"name":["This field is required."]}`},
		{"null name", jsonType, `{"name":null}`, 400, `{"name":["This field may not be null."]}`},
		{"blank name", jsonType, `{"name":"  "}`, 400, `{"name":["This field may not be blank."]}`},
		{"bool name", jsonType, `{"name":true}`, 400, `{"name":["Not a valid string."]}`},
		{"object name", jsonType, `{"name":{"a":1}}`, 400, `{"name":["Not a valid string."]}`},
		{"long name", jsonType, `{"name":"` + strings.Repeat("é", 101) + `"}`, 400, `{"name":["Ensure this field has no more than 100 characters."]}`},
		{"bad created", jsonType, `{"name":"x","created":"yesterday"}`, 400, `{"created":[` + formats + `]}`},
		{"a date is not a date-time", jsonType, `{"name":"x","created":"2026-01-01"}`, 400, `{"created":[` + formats + `]}`},
		{"numeric created", jsonType, `{"name":"x","created":1767261600}`, 400, `{"created":[` + formats + `]}`},
		{"both wrong", jsonType, `{"created":"x"}`, 400, `{"created":[` + formats + `],"name":["This field is required."]}`},
		{"created taken", jsonType, `{"name":"x","created":"2026-01-11T10:00:00Z"}`, 400, `{"created":["item with this created already exists."]}`},
	}
	h := mounted(Options{})
	before := getPage(t, h, base+LimitOffsetPath+"?limit=100", nil)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := send(h, http.MethodPost, base+"/items/", tt.ctype, tt.body)
			if w.Code != tt.wantStatus || w.Body.String() != tt.wantBody {
				t.Errorf("got %d %s; want %d %s", w.Code, w.Body, tt.wantStatus, tt.wantBody)
			}
		})
	}
	if after := getPage(t, h, base+LimitOffsetPath+"?limit=100", nil); !reflect.DeepEqual(after, before) {
		t.Errorf("the items changed after bad inserts")
	}
}

// TestPagingUnderInserts pages each style while items are inserted between
// pages: page number and limit/offset over a newest-first ordering show an
// item again, limit/offset skips one after a delete, and the cursor never
// shows an item twice and shows every original item.
func TestPagingUnderInserts(t *testing.T) {
	t.Run("page number repeats", func(t *testing.T) {
		h := mounted(Options{})
		p1 := getPage(t, h, base+PageNumberPath+"?ordering=-created", nil)
		send(h, http.MethodPost, base+"/items/", jsonType, `{"name":"New"}`)
		p2 := getPage(t, h, *p1.Next, nil)
		if last, first := p1.Results[9].ID, p2.Results[0].ID; last != first {
			t.Errorf("page 2 starts with %d; want %d again, the last item of page 1", first, last)
		}
	})
	t.Run("limit/offset skips after a delete", func(t *testing.T) {
		h := mounted(Options{})
		p1 := getPage(t, h, base+LimitOffsetPath, nil)
		send(h, http.MethodDelete, base+"/items/3/", "", "")
		p2 := getPage(t, h, *p1.Next, nil)
		if p2.Results[0].ID != 12 {
			t.Errorf("page 2 starts with %d; want 12 (item 11 moved to page 1 and is never seen)", p2.Results[0].ID)
		}
	})
	t.Run("cursor never repeats", func(t *testing.T) {
		h := mounted(Options{})
		seen := map[int]int{}
		next := base + CursorPath
		for n := 0; next != ""; n++ {
			p := getPage(t, h, next, nil)
			for _, it := range p.Results {
				seen[it.ID]++
			}
			// A new newest item, and one created between the items of the
			// next pages (which the client sees once, like any other).
			send(h, http.MethodPost, base+"/items/", jsonType, `{"name":"New"}`)
			send(h, http.MethodPost, base+"/items/", jsonType, `{"name":"Back-dated","created":"2026-03-0`+string(rune('1'+n%9))+`T12:00:00Z"}`)
			next = ""
			if p.Next != nil {
				next = *p.Next
			}
		}
		for id, n := range seen {
			if n != 1 {
				t.Errorf("item %d seen %d times; want once", id, n)
			}
		}
		for id := 1; id <= 95; id++ {
			if seen[id] != 1 {
				t.Errorf("original item %d seen %d times; want once", id, seen[id])
			}
		}
	})
}

// TestCursorBadInput wants 404 Invalid cursor for a cursor that does not
// decode or comes from another list.
func TestCursorBadInput(t *testing.T) {
	h := mounted(Options{})
	for _, c := range []string{"!!!", "cD0x", encodeCursor(cursorPos{position: "999999", hasPos: true}), encodeCursor(cursorPos{position: "item-42", hasPos: true})} {
		w := serve(t, h, http.MethodGet, base+CursorPath+"?cursor="+c, nil)
		if w.Code != 404 || w.Body.String() != `{"detail":"Invalid cursor"}` {
			t.Errorf("cursor %q: got %d %s; want 404 Invalid cursor", c, w.Code, w.Body)
		}
	}
}
