package fromdoc

import (
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDebugOne(t *testing.T) {
	doc, op := os.Getenv("DOC"), os.Getenv("OP")
	if doc == "" {
		t.Skip()
	}
	data, _ := os.ReadFile(filepath.Join(directory, doc))
	d, err := Load(doc, data)
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(Options{Name: "x", Document: d})
	if err != nil {
		t.Fatal(err)
	}
	for i, o := range d.ops {
		if !strings.Contains(o.Method+" "+o.Path, op) {
			continue
		}
		r := requestFor(d, o, uint64(i)+1)
		fmt.Println(">>", r.Method, r.URL, r.Header)
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		fmt.Println("<<", w.Code, w.Header(), w.Body.String())
	}
}
