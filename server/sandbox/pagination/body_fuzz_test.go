package pagination

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"testing"
)

// FuzzParseBody: the body parser of the item calls (JSON, form, multipart form: the one
// multipart parser a stranger reaches on the server) answers any body and Content-Type with the
// fields or a 400 or 415 in DRF's shape, never a panic or another status.
func FuzzParseBody(f *testing.F) {
	f.Add("application/json", []byte(`{"name":"x"}`))
	f.Add("application/x-www-form-urlencoded", []byte("name=x&name=y&%zz"))
	f.Add("multipart/form-data; boundary=B", []byte("--B\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nx\r\n--B--\r\n"))
	f.Add("multipart/form-data; boundary=B", []byte("--B\r\nContent-Disposition: form-data; name=\"f\"; filename=\"a.txt\"\r\nContent-Type: text/plain\r\n\r\n"+string(bytes.Repeat([]byte("A"), 4096))+"\r\n--B--\r\n"))
	f.Add("multipart/form-data", []byte("--\r\n"))
	f.Add("text/plain", []byte("x"))
	f.Fuzz(func(t *testing.T, ctype string, body []byte) {
		r := httptest.NewRequest(http.MethodPost, "/items/", bytes.NewReader(body))
		r.Header.Set("Content-Type", ctype)
		fields, status, problem := parseBody(r)
		switch {
		case status == 0 && fields == nil:
			t.Fatal("no fields and no error")
		case status != 0 && status != http.StatusBadRequest && status != http.StatusUnsupportedMediaType:
			t.Fatalf("status %d; want 400 or 415", status)
		case status != 0 && problem == nil:
			t.Fatalf("status %d without a body", status)
		}
		if r.MultipartForm != nil {
			_ = r.MultipartForm.RemoveAll()
		}
	})
}
