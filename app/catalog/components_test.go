package catalog

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// sharedAPI has a shared schema Pet used by every operation, which holds itself (a recursion
// stub) and a shared Tag.
func sharedAPI(n int) API {
	tag := &Schema{Type: "object", Shared: "Tag", Ref: "Tag", Properties: []Property{{Name: "name", Schema: &Schema{Type: "string"}}}}
	pet := &Schema{Type: "object", Shared: "Pet", Ref: "Pet", Properties: []Property{
		{Name: "tags", Schema: &Schema{Type: "array", Items: tag}},
		{Name: "parent", Schema: &Schema{Ref: "Pet", Recursive: true}},
	}}
	a := API{Slug: "pets"}
	for i := range n {
		a.Operations = append(a.Operations, Operation{ID: "op" + string(rune('a'+i%26)) + strings.Repeat("x", i/26), Method: "GET", Path: "/pets",
			Parameters: []Parameter{{Name: "tag", In: "query", Schema: tag}},
			Responses:  []Response{{Status: "200", Schema: &Schema{Type: "array", Items: pet}}}})
	}
	return a
}

// TestComponentsRoundTrip: a shared schema is written once however often it is used, and
// reading the JSON gives the same shared schema at every use.
func TestComponentsRoundTrip(t *testing.T) {
	one, _ := json.Marshal(Catalog{APIs: []API{sharedAPI(1)}})
	many, _ := json.Marshal(Catalog{APIs: []API{sharedAPI(100)}})
	if got := strings.Count(string(many), `"parent"`); got != 1 {
		t.Errorf("Pet's properties are written %d times for 100 uses; want once", got)
	}
	perOp := float64(len(many)-len(one)) / 99
	if perOp > 400 {
		t.Errorf("each more operation adds %.0f bytes; want its own fields only", perOp)
	}
	var back Catalog
	if err := json.Unmarshal(many, &back); err != nil {
		t.Fatal(err)
	}
	ops := back.APIs[0].Operations
	p0, p1 := ops[0].Responses[0].Schema.Items, ops[99].Responses[0].Schema.Items
	if p0 != p1 || p0.Ref != "Pet" || p0.Properties[1].Schema.Recursive != true {
		t.Fatalf("decoded Pet: %+v and %+v; want one shared schema with its recursion stub", p0, p1)
	}
	if tag := p0.Properties[0].Schema.Items; tag != ops[5].Parameters[0].Schema || tag.Properties[0].Name != "name" {
		t.Errorf("decoded Tag is not shared between a response and a parameter")
	}
	again, _ := json.Marshal(back)
	if string(again) != string(many) {
		t.Errorf("writing the decoded catalog again gives other JSON")
	}
}

// TestComponentsOfAnOperation: an operation sent on its own carries the shared schemas it
// uses, and a partial operation none.
func TestComponentsOfAnOperation(t *testing.T) {
	a := sharedAPI(3)
	b, _ := json.Marshal(&a.Operations[1])
	if !strings.Contains(string(b), `"components":{`) {
		t.Fatalf("operation JSON has no components: %s", b)
	}
	var op Operation
	if err := json.Unmarshal(b, &op); err != nil {
		t.Fatal(err)
	}
	if pet := op.Responses[0].Schema.Items; pet.Ref != "Pet" || len(pet.Properties) != 2 {
		t.Errorf("decoded operation's Pet = %+v", pet)
	}
	a.Operations[0] = a.Operations[0].Index()
	a.Operations[2] = a.Operations[2].Index()
	pc, _ := json.Marshal(API{Slug: "pets", Operations: a.Operations[:1]})
	if strings.Contains(string(pc), "components") {
		t.Errorf("a partial operation brings components: %s", pc)
	}
}

// TestDecodeIsUnmarshal: Decode reads a catalog as json.Unmarshal does, shared schemas
// resolved to one schema at every use.
func TestDecodeIsUnmarshal(t *testing.T) {
	written, _ := json.Marshal(Catalog{Version: "v", APIs: []API{sharedAPI(30)}, Page: "/pets"})
	for _, b := range [][]byte{written, []byte(`{"apis":[{"slug":"a"},{"slug":"b","operations":[],"components":{}}],"walkthroughs":[{"id":"w"}]}`)} {
		var want Catalog
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatal(err)
		}
		got, err := Decode(b)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, &want) {
			t.Errorf("Decode(%.60s...) gives\n%+v\nwant\n%+v", b, got, &want)
		}
	}
	got, _ := Decode(written)
	ops := got.APIs[0].Operations
	if p0, p1 := ops[0].Responses[0].Schema.Items, ops[29].Responses[0].Schema.Items; p0 != p1 || p0.Ref != "Pet" {
		t.Errorf("decoded Pet: %p and %p; want one shared schema", p0, p1)
	}
	for _, bad := range []string{`{"apis":[{"slug":1}]}`, `{"apis":[`, `[]`} {
		if _, err := Decode([]byte(bad)); err == nil {
			t.Errorf("Decode(%s): got no error; want one", bad)
		}
	}
}
