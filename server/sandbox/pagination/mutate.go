package pagination

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"loupe/server/sandbox/drf"
	"loupe/server/sandbox/state"
)

// Paths of the sandbox-only calls that change the items (documented in the
// YAML with x-loupe-sandbox-only): insert, delete one, restore the
// documented dataset.
const (
	ItemsPath      = "/items/"
	ItemsResetPath = "/items/reset/"
)

// maxNameLength is the name field's max_length.
const maxNameLength = 100

// createdFormats is DRF's message for a created value it cannot parse.
const createdFormats = "Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z]."

// fieldErrors is a DRF serializer's validation error body: field -> messages.
type fieldErrors map[string][]string

// mutate serves the sandbox-only calls under /items/; it reports false for
// other paths. The checks come in DRF's order: the method (405), the media
// type (415), the JSON (400), then the fields (400).
func (h *handler) mutate(w http.ResponseWriter, r *http.Request) bool {
	rest, ok := strings.CutPrefix(r.URL.Path, ItemsPath)
	if !ok {
		return false
	}
	switch {
	case rest == "":
		if !allow(w, r, "POST, OPTIONS", http.MethodPost) {
			return true
		}
		h.insert(w, r)
	case rest == "reset/":
		if !allow(w, r, "POST, OPTIONS", http.MethodPost) {
			return true
		}
		if err := h.users.Reset(r.Context()); err != nil {
			writeStateError(w, err)
			return true
		}
		w.WriteHeader(http.StatusNoContent)
	case strings.HasSuffix(rest, "/") && !strings.Contains(strings.TrimSuffix(rest, "/"), "/"):
		if !allow(w, r, "DELETE, OPTIONS", http.MethodDelete) {
			return true
		}
		id, err := strconv.Atoi(strings.TrimSuffix(rest, "/"))
		if err != nil {
			drf.WriteJSON(w, http.StatusNotFound, detail{"Not found."})
			return true
		}
		var found bool
		err = h.change(r.Context(), func(s *store, save func(...state.Change) error) (bool, error) {
			change := state.Forget(itemKey(id))
			if h.seedIDs[id] {
				change = state.Put(itemKey(id), []byte(tombstone))
			}
			var err error
			found, err = s.remove(id, func() error { return save(change) })
			return found, err
		})
		switch {
		case err != nil:
			writeStateError(w, err)
		case !found:
			drf.WriteJSON(w, http.StatusNotFound, detail{"No Item matches the given query."})
		default:
			w.WriteHeader(http.StatusNoContent)
		}
	default:
		drf.WriteJSON(w, http.StatusNotFound, detail{"Not found."})
	}
	return true
}

// allow answers 405 with DRF's body and the Allow header unless r uses method.
func allow(w http.ResponseWriter, r *http.Request, allowHeader, method string) bool {
	if r.Method == method {
		return true
	}
	w.Header().Set("Allow", allowHeader)
	drf.WriteJSON(w, http.StatusMethodNotAllowed, detail{fmt.Sprintf("Method %q not allowed.", r.Method)})
	return false
}

// insert answers POST /items/: 201 with the new item, or DRF's error.
func (h *handler) insert(w http.ResponseWriter, r *http.Request) {
	data, status, errBody := parseBody(r)
	if errBody != nil {
		drf.WriteJSON(w, status, errBody)
		return
	}
	name, created, errs := validateItem(data)
	if len(errs) > 0 {
		drf.WriteJSON(w, http.StatusBadRequest, errs)
		return
	}
	var it Item
	ok := true
	err := h.change(r.Context(), func(s *store, save func(...state.Change) error) (bool, error) {
		var err error
		it, ok, err = s.insert(name, created, func(it Item) error {
			rec, err := json.Marshal(it)
			if err != nil {
				return err
			}
			return save(state.Put(itemKey(it.ID), rec), state.Put(nextIDKey, []byte(strconv.Itoa(it.ID+1))))
		})
		return ok && err == nil, err
	})
	switch {
	case err != nil:
		writeStateError(w, err)
	case !ok:
		drf.WriteJSON(w, http.StatusBadRequest, fieldErrors{"created": {"item with this created already exists."}})
	default:
		drf.WriteJSON(w, http.StatusCreated, it)
	}
}

// parseBody reads the request body like DRF's default parsers (JSON, form,
// multipart form): a map of field values, or the status and error body.
func parseBody(r *http.Request) (map[string]any, int, any) {
	ctype := r.Header.Get("Content-Type")
	media, _, _ := mime.ParseMediaType(ctype)
	raw, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		return nil, http.StatusBadRequest, detail{"Could not read the request body."}
	}
	switch media {
	case "application/json":
		if len(bytes.TrimSpace(raw)) == 0 {
			return map[string]any{}, 0, nil
		}
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, http.StatusBadRequest, detail{"JSON parse error - " + jsonProblem(raw, err)}
		}
		if dec.More() {
			return nil, http.StatusBadRequest, detail{"JSON parse error - Extra data"}
		}
		obj, ok := v.(map[string]any)
		if !ok {
			return nil, http.StatusBadRequest, fieldErrors{"non_field_errors": {"Invalid data. Expected a dictionary, but got " + pyType(v) + "."}}
		}
		return obj, 0, nil
	case "application/x-www-form-urlencoded", "multipart/form-data":
		if media == "multipart/form-data" {
			r.Body = io.NopCloser(bytes.NewReader(raw))
			if err := r.ParseMultipartForm(1 << 20); err != nil {
				return nil, http.StatusBadRequest, detail{"Multipart form parse error - " + err.Error()}
			}
		} else {
			vals, err := url.ParseQuery(string(raw))
			if err != nil {
				return nil, http.StatusBadRequest, detail{"Form parse error."}
			}
			r.PostForm = vals
		}
		out := map[string]any{}
		for k, vs := range r.PostForm {
			out[k] = vs[len(vs)-1]
		}
		return out, 0, nil
	}
	return nil, http.StatusUnsupportedMediaType, detail{fmt.Sprintf("Unsupported media type %q in request.", ctype)}
}

// jsonProblem describes a JSON syntax error like Python's json module does
// for the common case: where the value it expected is missing.
func jsonProblem(raw []byte, err error) string {
	var syn *json.SyntaxError
	off := len(raw)
	if errors.As(err, &syn) {
		off = int(syn.Offset) - 1
	}
	off = max(0, min(off, len(raw)))
	line := 1 + bytes.Count(raw[:off], []byte("\n"))
	col := off - bytes.LastIndexByte(raw[:off], '\n')
	return fmt.Sprintf("Expecting value: line %d column %d (char %d)", line, col, utf8.RuneCount(raw[:off]))
}

// pyType names a JSON value's Python type, as DRF's message shows it.
func pyType(v any) string {
	switch v.(type) {
	case []any:
		return "list"
	case string:
		return "str"
	case bool:
		return "bool"
	case json.Number:
		if strings.ContainsAny(v.(json.Number).String(), ".eE") {
			return "float"
		}
		return "int"
	case nil:
		return "NoneType"
	}
	return "dict"
}

// validateItem is the item serializer: name (a string, required, not blank,
// at most 100 characters; numbers are turned into strings) and created (an
// ISO 8601 date-time, optional; naive times are UTC). id is read-only and
// other fields are ignored.
func validateItem(data map[string]any) (string, time.Time, fieldErrors) {
	errs := fieldErrors{}
	var name string
	switch v := data["name"].(type) {
	case nil:
		if _, present := data["name"]; present {
			errs["name"] = []string{"This field may not be null."}
		} else {
			errs["name"] = []string{"This field is required."}
		}
	case string:
		name = strings.TrimSpace(v)
	case json.Number:
		name = v.String()
	default:
		errs["name"] = []string{"Not a valid string."}
	}
	if _, bad := errs["name"]; !bad {
		switch {
		case name == "":
			errs["name"] = []string{"This field may not be blank."}
		case utf8.RuneCountInString(name) > maxNameLength:
			errs["name"] = []string{fmt.Sprintf("Ensure this field has no more than %d characters.", maxNameLength)}
		}
	}
	var created time.Time
	if v, present := data["created"]; present {
		s, ok := v.(string)
		switch {
		case v == nil:
			errs["created"] = []string{"This field may not be null."}
		case !ok:
			errs["created"] = []string{createdFormats}
		default:
			t, err := parseCreated(s)
			if err != nil {
				errs["created"] = []string{createdFormats}
			}
			created = t
		}
	}
	return name, created, errs
}

// parseCreated reads a date-time the way Django's parse_datetime does
// (a date alone is not one).
func parseCreated(s string) (time.Time, error) {
	if len(strings.TrimSpace(s)) <= len("2006-01-02") {
		return time.Time{}, fmt.Errorf("%q is not a date-time", s)
	}
	t, err := parsePosition(strings.TrimSpace(s))
	if err != nil {
		return time.Time{}, err
	}
	return t.UTC().Truncate(time.Microsecond), nil
}
