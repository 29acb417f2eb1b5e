package script

import (
	"encoding/json"
	"fmt"
	"strings"

	"loupe/server/sandbox/script/engine"
	"loupe/server/sandbox/state"
)

// The services' state of a user (properties, caches, spreadsheets) is kept as documents
// (engine/changes.go names them), stored as d/<key> records with the session's other changes,
// so that they last with the data directory and Reset clears them.

// maxDoc bounds one document (a spreadsheet, a property store, a cache).
const maxDoc = 2 << 20

// docChanges computes the documents that changes make of the store's, without changing the
// store: the records to store and the documents to install once they are stored. The caller
// holds s.mu.
func (s *store) docChanges(changes []engine.Change) ([]state.Change, map[string]json.RawMessage, error) {
	next := map[string]json.RawMessage{}
	for _, c := range changes {
		doc, ok := next[c.Key]
		if !ok {
			doc = s.docs[c.Key]
		}
		doc, err := engine.ApplyChange(doc, c)
		if err != nil {
			return nil, nil, err
		}
		if len(doc) > maxDoc {
			return nil, nil, fmt.Errorf("The sandbox keeps at most %s a document; %s would be %s. Keep less in it.",
				mib(maxDoc), describeDoc(c.Key), mib(len(doc)))
		}
		next[c.Key] = doc
	}
	out := make([]state.Change, 0, len(next))
	for k, doc := range next {
		if doc == nil {
			out = append(out, state.Forget("d/"+k))
		} else {
			out = append(out, state.Put("d/"+k, doc))
		}
	}
	return out, next, nil
}

// installDocs puts documents in the store (nil deletes). The caller holds s.mu.
func (s *store) installDocs(next map[string]json.RawMessage) {
	for k, doc := range next {
		if doc == nil {
			delete(s.docs, k)
		} else {
			s.docs[k] = doc
		}
	}
}

// commitDocs stores changes and installs them: LockService.releaseLock, SpreadsheetApp.flush.
func (s *store) commitDocs(changes []engine.Change) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	records, next, err := s.docChanges(changes)
	if err != nil {
		return err
	}
	if e := s.persist(records...); e != nil {
		return fmt.Errorf("%s", e.Error.Message)
	}
	s.installDocs(next)
	return nil
}

// describeDoc names a document for a message.
func describeDoc(key string) string {
	kind, rest, _ := strings.Cut(key, "/")
	switch kind {
	case "sheet":
		return "the spreadsheet " + rest
	case "props":
		return "the " + strings.SplitN(rest, "/", 2)[0] + " properties"
	case "cache":
		return "the " + strings.SplitN(rest, "/", 2)[0] + " cache"
	}
	return key
}
