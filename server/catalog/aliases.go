package catalog

import (
	"bytes"

	"go.yaml.in/yaml/v4"
)

// maxExpansion is how many values a document's YAML aliases may expand it to, beyond its own:
// an alias repeats what its anchor holds, and aliases of aliases multiply ("billion laughs":
// a few hundred bytes that expand to 10^9 values), which every reader of the document (the
// compiler writing an example as JSON among them) would expand again.
const maxExpansion = 1_000_000

// checkAliases refuses a document whose aliases expand it past maxExpansion values (and past
// ten times its own size), naming the alias that does, before anything reads the aliases.
func checkAliases(data []byte, root *yaml.Node, p *problems) bool {
	if len(bytes.TrimSpace(data)) > 0 && bytes.TrimSpace(data)[0] == '{' || !bytes.Contains(data, []byte("*")) {
		return true // JSON has no aliases
	}
	sizes := map[*yaml.Node]int64{}
	nodes := int64(0)
	var worst *yaml.Node
	var size func(n *yaml.Node, depth int) int64
	size = func(n *yaml.Node, depth int) int64 {
		if n == nil {
			return 0
		}
		if s, ok := sizes[n]; ok {
			return s
		}
		sizes[n] = 1 // an alias cycle counts once
		var s int64 = 1
		if n.Kind == yaml.AliasNode {
			s = size(n.Alias, depth+1)
			if s > maxExpansion/10 && worst == nil {
				worst = n
			}
		} else {
			nodes++
			for _, c := range n.Content {
				s += size(c, depth+1)
				if s > 1<<50 {
					s = 1 << 50
				}
			}
		}
		sizes[n] = s
		return s
	}
	total := size(root, 0)
	if total > maxExpansion && total > 10*nodes {
		at := worst
		if at == nil {
			at = root
		}
		p.add(at, "the document's YAML aliases expand it to %d values from %d written (an alias bomb, \"billion laughs\"): write the values out, or use $ref", total, nodes)
		return false
	}
	return true
}
