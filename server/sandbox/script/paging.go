package script

import (
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// defaultPageSize is the documented default of pageSize.
const defaultPageSize = 50

// pageSize reads the pageSize parameter: absent or 0 means the default; it must be an int32 ≥ 0.
func pageSize(q url.Values) (int, *apiError) {
	v := q.Get("pageSize")
	if v == "" {
		return defaultPageSize, nil
	}
	n, err := strconv.ParseInt(v, 10, 32)
	if err != nil {
		return 0, invalidValue("pageSize", "TYPE_INT32", v)
	}
	if n < 0 {
		return 0, invalidArgument("pageSize", fmt.Sprintf("pageSize must be at least 1, got %d.", n))
	}
	if n == 0 {
		return defaultPageSize, nil
	}
	return int(n), nil
}

// errBadToken is the 400 for a page token this list did not issue.
func errBadToken(tok string) *apiError {
	return invalidArgument("pageToken", fmt.Sprintf("Invalid page token %q: pass the nextPageToken of the previous page.", tok))
}

// page cuts items[start:] to size; more says whether items remain after the page.
func page[T any](items []T, start, size int) (out []T, more bool) {
	if start > len(items) {
		start = len(items)
	}
	end := min(start+size, len(items))
	return items[start:end], end < len(items)
}

// Page tokens are opaque to clients. They are base64 (URL alphabet, no padding) of small
// protobuf-like records naming the last item of the previous page, so they survive items being
// added before or after that item:
//   - versions: field 1 { field 1 varint: the last version number }   ("CgIIAg" after version 2)
//   - deployments: 0x0a '0' and the first 43 characters of the last deployment ID
//   - processes: field 1 { field 1 string: the last process key, field 2 varint: items so far }
const deploymentTokenIDLen = 43

// decodeToken decodes the base64 of a token (either alphabet, with or without padding).
func decodeToken(tok string) ([]byte, bool) {
	tok = strings.TrimRight(tok, "=")
	if b, err := base64.RawURLEncoding.DecodeString(tok); err == nil {
		return b, true
	}
	b, err := base64.RawStdEncoding.DecodeString(tok)
	return b, err == nil
}

// versionToken encodes the token after version n.
func versionToken(n int) string {
	inner := binary.AppendUvarint([]byte{0x08}, uint64(n))
	return base64.RawURLEncoding.EncodeToString(append([]byte{0x0a, byte(len(inner))}, inner...))
}

// parseVersionToken returns the version number a token was issued after.
func parseVersionToken(tok string) (int, bool) {
	b, ok := decodeToken(tok)
	if !ok || len(b) < 4 || b[0] != 0x0a || int(b[1]) != len(b)-2 || b[2] != 0x08 {
		return 0, false
	}
	n, k := binary.Uvarint(b[3:])
	if k <= 0 || 3+k != len(b) || n < 1 || n > 1<<31 {
		return 0, false
	}
	return int(n), true
}

// deploymentToken encodes the token after the deployment id.
func deploymentToken(id string) string {
	if len(id) > deploymentTokenIDLen {
		id = id[:deploymentTokenIDLen]
	}
	return base64.RawURLEncoding.EncodeToString(append([]byte{0x0a, '0'}, id...))
}

// parseDeploymentToken returns the deployment ID prefix a token carries.
func parseDeploymentToken(tok string) (string, bool) {
	b, ok := decodeToken(tok)
	if !ok || len(b) < 3 || b[0] != 0x0a || b[1] != '0' {
		return "", false
	}
	return string(b[2:]), true
}

// processToken encodes the token after the process key, n items having been listed.
func processToken(key string, n int) string {
	b := []byte{0x0a, byte(len(key) + 5), 0x0a, byte(len(key) - 1)}
	b = append(b, key...)
	b = binary.AppendUvarint(append(b, 0x10), uint64(n))
	return base64.RawURLEncoding.EncodeToString(b)
}

// parseProcessToken returns the process key and the count a token carries.
func parseProcessToken(tok string) (string, int, bool) {
	b, ok := decodeToken(tok)
	if !ok || len(b) < 6 || b[0] != 0x0a || b[2] != 0x0a {
		return "", 0, false
	}
	klen := int(b[3]) + 1
	if int(b[1]) != klen+5 || len(b) < 4+klen+2 || b[4+klen] != 0x10 {
		return "", 0, false
	}
	n, k := binary.Uvarint(b[5+klen:])
	if k <= 0 || 5+klen+k != len(b) {
		return "", 0, false
	}
	return string(b[4 : 4+klen]), int(n), true
}
