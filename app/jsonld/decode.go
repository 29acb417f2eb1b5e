package jsonld

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// kind is the JSON type of a decoded value.
type kind int

const (
	kNull kind = iota
	kBool
	kNumber
	kString
	kArray
	kObject
)

// jv is a decoded JSON value that keeps object keys in document order.
type jv struct {
	kind kind
	b    bool
	num  json.Number
	str  string
	arr  []jv
	obj  []member
}

type member struct {
	key string
	val jv
}

// get returns the value of key in an object and whether it is present.
func (v jv) get(key string) (jv, bool) {
	for _, m := range v.obj {
		if m.key == key {
			return m.val, true
		}
	}
	return jv{}, false
}

// decode parses one JSON document, keeping key order.
func decode(doc []byte) (jv, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return jv{}, fmt.Errorf("decoding JSON: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return jv{}, errors.New("decoding JSON: data after the top-level value")
	}
	return v, nil
}

func decodeValue(dec *json.Decoder) (jv, error) {
	t, err := dec.Token()
	if err != nil {
		return jv{}, err
	}
	switch t := t.(type) {
	case nil:
		return jv{kind: kNull}, nil
	case bool:
		return jv{kind: kBool, b: t}, nil
	case json.Number:
		return jv{kind: kNumber, num: t}, nil
	case string:
		return jv{kind: kString, str: t}, nil
	case json.Delim:
		switch t {
		case '[':
			out := jv{kind: kArray, arr: []jv{}}
			for dec.More() {
				e, err := decodeValue(dec)
				if err != nil {
					return jv{}, err
				}
				out.arr = append(out.arr, e)
			}
			_, err := dec.Token() // ']'
			return out, err
		case '{':
			out := jv{kind: kObject, obj: []member{}}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return jv{}, err
				}
				k, _ := kt.(string)
				e, err := decodeValue(dec)
				if err != nil {
					return jv{}, err
				}
				out.obj = append(out.obj, member{key: k, val: e})
			}
			_, err := dec.Token() // '}'
			return out, err
		}
	}
	return jv{}, fmt.Errorf("unexpected token %v", t)
}
