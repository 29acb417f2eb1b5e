package chat

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
)

// object is a JSON object that keeps its keys in document order, so that
// arguments list properties in the order the schema declares them.
type object struct {
	keys []string
	vals map[string]any
}

// get returns the value of key, or nil.
func (o *object) get(key string) any {
	if o == nil {
		return nil
	}
	return o.vals[key]
}

// set adds or replaces key.
func (o *object) set(key string, v any) {
	if _, ok := o.vals[key]; !ok {
		o.keys = append(o.keys, key)
	}
	o.vals[key] = v
}

// newObject returns an empty object.
func newObject() *object { return &object{vals: map[string]any{}} }

// decodeOrdered decodes JSON into nil, bool, json.Number, string, []any and
// *object values.
func decodeOrdered(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return nil, fmt.Errorf("decode schema: %w", err)
	}
	return v, nil
}

// decodeValue reads one value from dec.
func decodeValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			o := newObject()
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				key, ok := k.(string)
				if !ok {
					return nil, errors.New("object key is not a string")
				}
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				o.set(key, v)
			}
			_, err := dec.Token() // '}'
			return o, err
		case '[':
			list := []any{}
			for dec.More() {
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				list = append(list, v)
			}
			_, err := dec.Token() // ']'
			return list, err
		}
		return nil, fmt.Errorf("unexpected %v", t)
	default:
		return t, nil
	}
}

// encodeValue writes a value made of the types decodeOrdered returns (and
// int, float64) as compact JSON.
func encodeValue(buf *bytes.Buffer, v any) {
	switch t := v.(type) {
	case nil:
		buf.WriteString("null")
	case bool:
		buf.WriteString(strconv.FormatBool(t))
	case json.Number:
		buf.WriteString(t.String())
	case int:
		buf.WriteString(strconv.Itoa(t))
	case float64:
		if math.IsInf(t, 0) || math.IsNaN(t) {
			buf.WriteString("0") // JSON has no infinities
			return
		}
		buf.WriteString(strconv.FormatFloat(t, 'f', -1, 64))
	case string:
		b, _ := json.Marshal(t) // a string always marshals
		buf.Write(b)
	case []any:
		buf.WriteByte('[')
		for i, e := range t {
			if i > 0 {
				buf.WriteByte(',')
			}
			encodeValue(buf, e)
		}
		buf.WriteByte(']')
	case *object:
		buf.WriteByte('{')
		for i, k := range t.keys {
			if i > 0 {
				buf.WriteByte(',')
			}
			encodeValue(buf, k)
			buf.WriteByte(':')
			encodeValue(buf, t.vals[k])
		}
		buf.WriteByte('}')
	}
}
