package op

import (
	"encoding/json"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/fetch"
	"loupe/app/history"
)

// The answers of the history's requests, which "Save as walkthrough" needs (a value an answer
// gave becomes a runtime expression in the requests after it), are kept apart from the history
// itself: in the tab's sessionStorage, gone when the tab closes, never shared with another tab
// and never in localStorage, which keeps the history across sessions. An answer holds no
// credential Loupe holds (the proxy masks them in every answer, and a key typed for a real API
// in the static explorer is masked here); at most history.MaxAnswer each and maxAnswers in
// all, the oldest dropped first.
const (
	answersIndexKey = "loupe.history.answers" // the ids kept, oldest first, with their sizes
	answerKeyPrefix = "loupe.history.answer." // + an entry's id: its answer
	maxAnswers      = 2 << 20                 // characters, all answers together
	maskedKey       = "••••••"                // a real API's key, where an answer echoed it
)

// answerSeq makes entry ids unique within a page's life.
var answerSeq atomic.Int64

// newEntryID returns an id for a history entry: the time and a sequence number.
func newEntryID() string {
	return strconv.FormatInt(time.Now().UnixMilli(), 36) + "-" + strconv.FormatInt(answerSeq.Add(1), 36)
}

// keptAnswer is one answer's place in the index.
type keptAnswer struct {
	ID   string `json:"id"`
	Size int    `json:"n"`
}

// keepAnswer keeps the answer of the request of entry id (of API slug) for the session, when it
// is small enough; it reports whether it was kept.
func keepAnswer(id, slug string, ex *Exchange) bool {
	if !app.IsClient || id == "" || ex == nil || ex.Status == 0 || ex.Truncated || len(ex.Body) > history.MaxAnswer {
		return false
	}
	body := string(ex.Body)
	if real, ok := fetch.RealAPIOf(slug); ok && len(real.Key) >= 4 {
		body = strings.ReplaceAll(body, real.Key, maskedKey)
	}
	b, _ := json.Marshal(history.Answer{ContentType: headerValue(ex, "Content-Type"), Body: body})
	store := app.Window().Get("sessionStorage")
	index := readIndex(store)
	total := len(b)
	for _, k := range index {
		total += k.Size
	}
	for len(index) > 0 && total > maxAnswers {
		removeItem(store, answerKeyPrefix+index[0].ID)
		total -= index[0].Size
		index = index[1:]
	}
	// The storage may be full: drop the oldest until it takes this one, or give up.
	for !setItem(store, answerKeyPrefix+id, string(b)) {
		if len(index) == 0 {
			return false
		}
		removeItem(store, answerKeyPrefix+index[0].ID)
		index = index[1:]
	}
	index = append(index, keptAnswer{ID: id, Size: len(b)})
	raw, _ := json.Marshal(index)
	setItem(store, answersIndexKey, string(raw))
	return true
}

// KeptAnswer returns the answer the tab kept of a history entry's request, or nil when it kept
// none (too large, sent in another tab or an earlier session, or dropped for room).
func KeptAnswer(id string) *history.Answer {
	if !app.IsClient || id == "" {
		return nil
	}
	v := app.Window().Get("sessionStorage").Call("getItem", answerKeyPrefix+id)
	if !v.Truthy() {
		return nil
	}
	var a history.Answer
	if json.Unmarshal([]byte(v.String()), &a) != nil {
		return nil
	}
	return &a
}

// clearAnswers forgets every answer kept.
func clearAnswers() {
	store := app.Window().Get("sessionStorage")
	for _, k := range readIndex(store) {
		removeItem(store, answerKeyPrefix+k.ID)
	}
	removeItem(store, answersIndexKey)
}

func readIndex(store app.Value) []keptAnswer {
	v := store.Call("getItem", answersIndexKey)
	var index []keptAnswer
	if v.Truthy() {
		_ = json.Unmarshal([]byte(v.String()), &index)
	}
	return index
}

func removeItem(store app.Value, key string) {
	defer func() { _ = recover() }()
	store.Call("removeItem", key)
}

// headerValue is an answer's header, "" when it has none.
func headerValue(ex *Exchange, name string) string {
	for _, h := range ex.Headers {
		if strings.EqualFold(h.Name, name) {
			return h.Value
		}
	}
	return ""
}
