package engine

import (
	"crypto/hmac"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"hash"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dop251/goja"
)

// Apps Script passes bytes as Byte[]: arrays of Java's signed bytes (-128…127). Strings become
// bytes in a charset (Utilities.Charset: UTF_8, the default, or US_ASCII).

// digests are Utilities.DigestAlgorithm's algorithms the sandbox offers (MD2 is not).
var digests = map[string]func() hash.Hash{
	"MD5": md5.New, "SHA_1": sha1.New, "SHA_256": sha256.New, "SHA_384": sha512.New384, "SHA_512": sha512.New,
}

// macs are Utilities.MacAlgorithm's algorithms.
var macs = map[string]func() hash.Hash{
	"HMAC_MD5": md5.New, "HMAC_SHA_1": sha1.New, "HMAC_SHA_256": sha256.New, "HMAC_SHA_384": sha512.New384, "HMAC_SHA_512": sha512.New,
}

// bytesOf reads a Byte[] or a string (in charset) as bytes.
func (n *natives) bytesOf(v goja.Value, charset string) []byte {
	if obj, ok := v.(*goja.Object); ok && obj.ClassName() == "Array" {
		l := obj.Get("length").ToInteger()
		out := make([]byte, 0, l)
		for i := int64(0); i < l; i++ {
			out = append(out, byte(obj.Get(strconv.FormatInt(i, 10)).ToInteger()))
		}
		return out
	}
	s := v.String()
	if charset == "US_ASCII" {
		b := make([]byte, 0, len(s))
		for _, r := range s {
			if r > 127 {
				r = '?'
			}
			b = append(b, byte(r))
		}
		return b
	}
	return []byte(s)
}

// signed returns b as a Byte[].
func (n *natives) signed(b []byte) goja.Value {
	out := make([]any, len(b))
	for i, c := range b {
		out[i] = int64(int8(c))
	}
	return n.vm.NewArray(out...)
}

// text decodes bytes in charset, replacing what does not decode as Java does.
func text(b []byte, charset string) string {
	if charset == "US_ASCII" {
		var sb strings.Builder
		for _, c := range b {
			if c > 127 {
				sb.WriteRune(utf8.RuneError)
			} else {
				sb.WriteByte(c)
			}
		}
		return sb.String()
	}
	return strings.ToValidUTF8(string(b), string(utf8.RuneError))
}

// setBytes adds the byte and crypto natives to o.
func (n *natives) setBytes(o *goja.Object) {
	arg := func(c goja.FunctionCall, i int) string {
		if v := c.Argument(i); !goja.IsUndefined(v) && !goja.IsNull(v) {
			return v.String()
		}
		return ""
	}
	enc := func(web bool) *base64.Encoding {
		if web {
			return base64.URLEncoding
		}
		return base64.StdEncoding
	}
	_ = o.Set("bytes", func(c goja.FunctionCall) goja.Value { return n.signed(n.bytesOf(c.Argument(0), arg(c, 1))) })
	_ = o.Set("text", func(c goja.FunctionCall) goja.Value {
		return n.vm.ToValue(text(n.bytesOf(c.Argument(0), ""), arg(c, 1)))
	})
	_ = o.Set("base64Encode", func(c goja.FunctionCall) goja.Value {
		return n.vm.ToValue(enc(c.Argument(2).ToBoolean()).EncodeToString(n.bytesOf(c.Argument(0), arg(c, 1))))
	})
	_ = o.Set("base64Decode", func(c goja.FunctionCall) goja.Value {
		s := strings.TrimSpace(arg(c, 0))
		e := enc(c.Argument(1).ToBoolean())
		b, err := e.DecodeString(s)
		if err != nil { // Java's decoder also takes the text without its padding
			b, err = e.WithPadding(base64.NoPadding).DecodeString(strings.TrimRight(s, "="))
		}
		if err != nil {
			panic(n.exception("Could not decode string."))
		}
		return n.signed(b)
	})
	_ = o.Set("digest", func(c goja.FunctionCall) goja.Value {
		alg := arg(c, 0)
		h, ok := digests[alg]
		if !ok {
			panic(n.exception("The sandbox does not offer the digest algorithm %s: use MD5, SHA_1, SHA_256, SHA_384 or SHA_512.", alg))
		}
		d := h()
		d.Write(n.bytesOf(c.Argument(1), arg(c, 2)))
		return n.signed(d.Sum(nil))
	})
	_ = o.Set("hmac", func(c goja.FunctionCall) goja.Value {
		alg := arg(c, 0)
		h, ok := macs[alg]
		if !ok {
			panic(n.exception("Invalid argument: algorithm"))
		}
		m := hmac.New(h, n.bytesOf(c.Argument(2), arg(c, 3)))
		m.Write(n.bytesOf(c.Argument(1), arg(c, 3)))
		return n.signed(m.Sum(nil))
	})
}
