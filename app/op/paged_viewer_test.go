package op

import (
	"slices"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
)

func TestItemColumnsKeepFirstUseOrder(t *testing.T) {
	tests := []struct {
		name     string
		body     string
		wantCols []string
		wantMore int
	}{
		{"objects", `[{"id":1,"name":"a"},{"id":2,"created":"x","name":"b"}]`, []string{"id", "name", "created"}, 0},
		{"scalars", `[1,2,3]`, []string{"value"}, 0},
		{"too wide", `[{"a":1,"b":1,"c":1,"d":1,"e":1,"f":1,"g":1,"h":1,"i":1,"j":1}]`, []string{"a", "b", "c", "d", "e", "f", "g", "h"}, 2},
	}
	for _, tt := range tests {
		root, ok := parseJSON([]byte(tt.body))
		if !ok {
			t.Fatalf("%s: not JSON", tt.name)
		}
		cols, more := itemColumns(root.children)
		if !slices.Equal(cols, tt.wantCols) || more != tt.wantMore {
			t.Errorf("%s: got %v, %d more; want %v, %d more", tt.name, cols, more, tt.wantCols, tt.wantMore)
		}
	}
}

func TestPagedViewerShowsThePageAsATable(t *testing.T) {
	viewer := bodyViewers[catalog.ViewerPaged]
	if viewer == nil {
		t.Fatal("no paged list viewer registered")
	}
	op := &catalog.Operation{Pagination: &catalog.Pagination{Results: "results", Next: "next", Previous: "previous", Count: "count"}}
	tests := []struct {
		name, body string
		want       []string
		wantNot    []string
	}{
		{"a page", `{"count":95,"next":null,"previous":null,"results":[{"id":11,"name":"Item <b>11</b>","tags":["a"]},{"id":12,"name":"Item 12"}]}`,
			[]string{`id="paged-table"`, `>id</th>`, `>name</th>`, `>tags</th>`, `Item &lt;b&gt;11&lt;/b&gt;`, `[&#34;a&#34;]`, `>2</td>`},
			[]string{"<b>11"}},
		{"an empty page", `{"count":0,"results":[]}`, []string{`id="paged-empty"`}, []string{"paged-table"}},
		{"no list", `{"detail":"Invalid page."}`, []string{"no list of items"}, []string{"paged-table"}},
	}
	for _, tt := range tests {
		out := app.HTMLString(viewer(op, 200, []byte(tt.body)))
		for _, w := range tt.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: the table lacks %s:\n%s", tt.name, w, out)
			}
		}
		for _, w := range tt.wantNot {
			if strings.Contains(out, w) {
				t.Errorf("%s: the table holds %s:\n%s", tt.name, w, out)
			}
		}
	}
}

func TestANestedCellIsShortenedWithItsWholeValueInItsTitle(t *testing.T) {
	root, _ := parseJSON([]byte(`[{"actor":{"email":"alice@example.com","profileId":"110000000000000000001","callerType":"USER"}}]`))
	out := app.HTMLString(cell(root.children[0], "actor"))
	if !strings.Contains(out, "…") || !strings.Contains(out, `title="{`) || !strings.Contains(out, "110000000000000000001") {
		t.Errorf("got %s; want a shortened value with the whole one in its title", out)
	}
}

func TestCompactJSONKeepsKeyOrder(t *testing.T) {
	const in = `{"time":"t","b":[1,true,null,{"z":"\"q\""}],"a":1.50}`
	root, _ := parseJSON([]byte(in))
	if got := compactJSON(root); got != in {
		t.Errorf("got %s; want %s", got, in)
	}
}
