package cluster

import "testing"

// TestClusterStateCells checks how copies are laid out by node.
func TestClusterStateCells(t *testing.T) {
	body := `{"health":{"status":"yellow","relocating_shards":1},"nodes":[{"name":"node-1","up":true},{"name":"node-2","up":true}],
"indices":[{"name":"a","status":"yellow","shards":[
 {"shard":0,"status":"green","copies":[{"primary":true,"state":"RELOCATING","node":"node-1","relocating_node":"node-2"}]},
 {"shard":1,"status":"yellow","copies":[{"primary":true,"state":"STARTED","node":"node-2"},{"primary":false,"state":"UNASSIGNED","delayed":true},{"primary":false,"state":"UNASSIGNED","node":"node-1","fetching":true}]}]}]}`
	s, err := parseClusterState([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	if !s.moving() {
		t.Errorf("moving: got false; want true with a relocation")
	}
	cells := s.cells(0)
	tests := []struct {
		node   string
		labels []string
		notes  []string
	}{
		{"node-1", []string{"0P"}, []string{"moving to node-2"}},
		{"node-2", []string{"0P", "1P"}, []string{"arriving from node-1", ""}},
		{"", []string{"1R", "1R"}, []string{"delayed, waiting for its node", "fetching for node-1"}},
	}
	for _, tt := range tests {
		got := cells[tt.node]
		if len(got) != len(tt.labels) {
			t.Fatalf("%q: got %d cells; want %d", tt.node, len(got), len(tt.labels))
		}
		for i, c := range got {
			if c.label() != tt.labels[i] || c.Note != tt.notes[i] {
				t.Errorf("%q[%d]: got %s %q; want %s %q", tt.node, i, c.label(), c.Note, tt.labels[i], tt.notes[i])
			}
		}
	}
	if _, err := parseClusterState([]byte(`{"error":"x"}`)); err == nil {
		t.Errorf("an answer without health: got no error")
	}
}
