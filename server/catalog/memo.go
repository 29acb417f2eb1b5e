package catalog

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"sync"

	"loupe/app/catalog"
)

// compiledDocuments keeps the APIs this process compiled from shipped documents, so that a
// document is compiled once however many servers load it: the built-in documents take about
// 0.4 s of CPU to parse, validate and compile (their examples checked against their schemas),
// and a test suite makes hundreds of servers from them. Only documents that compiled without a
// problem are kept, and each API is kept as its JSON: every caller gets a copy of its own to
// change, and an entry costs its JSON's bytes (about 600 kB for the seven built-in documents).
// A process's documents are few (the built-in ones and a configuration's), so entries are not
// evicted.
var compiledDocuments documentMemo

// documentMemo maps a document (slug, file name and bytes) to its compiled API's JSON.
type documentMemo struct {
	apis sync.Map // [sha256.Size]byte -> []byte
}

// key names a document: its slug and file name (both in the compiled API and its errors)
// and its bytes.
func (m *documentMemo) key(slug, file string, data []byte) [sha256.Size]byte {
	h := sha256.New()
	for _, part := range [][]byte{[]byte(slug), []byte(file), data} {
		h.Write(binary.LittleEndian.AppendUint64(nil, uint64(len(part)))) // "ab"+"c" is not "a"+"bc"
		h.Write(part)
	}
	var k [sha256.Size]byte
	h.Sum(k[:0])
	return k
}

// get returns a copy of the API compiled from the document, if it was kept.
func (m *documentMemo) get(slug, file string, data []byte) (catalog.API, bool) {
	v, ok := m.apis.Load(m.key(slug, file, data))
	if !ok {
		return catalog.API{}, false
	}
	var api catalog.API
	if err := json.Unmarshal(v.([]byte), &api); err != nil {
		return catalog.API{}, false // never: the bytes are json.Marshal's of an API
	}
	return api, true
}

// put keeps api, compiled from the document.
func (m *documentMemo) put(slug, file string, data []byte, api catalog.API) {
	b, err := json.Marshal(api)
	if err != nil {
		return // never: an API is plain data
	}
	m.apis.Store(m.key(slug, file, data), b)
}
