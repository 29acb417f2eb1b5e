package engine

import (
	"regexp"
	"testing"
)

// hex is a helper the cases use: a Byte[] as lowercase hex.
const hex = "function hex(b) { return b.map(function (x) { return ((x + 256) % 256).toString(16).padStart(2, '0'); }).join(''); }\n"

// TestUtilities checks Utilities against Apps Script's documentation and known vectors: base64
// (standard and web-safe, Byte[] of signed bytes), digests, HMAC, formatDate with Java's
// patterns in a time zone, formatString, newBlob, parseCsv, sleep, and the errors.
func TestUtilities(t *testing.T) {
	when := "new Date(Date.UTC(2026, 10, 20, 12, 5, 31, 204))"
	runCases(t, newMemHost(), "Europe/London", []serviceCase{
		{"base64Encode", `return Utilities.base64Encode('Hello, World!');`, `"SGVsbG8sIFdvcmxkIQ=="`},
		{"base64Encode UTF-8", `return Utilities.base64Encode('é', Utilities.Charset.UTF_8);`, `"w6k="`},
		{"base64Encode US_ASCII", `return Utilities.base64Encode('é', Utilities.Charset.US_ASCII);`, `"Pw=="`},
		{"base64Encode bytes", `return [Utilities.base64Encode([-5, -1]), Utilities.base64EncodeWebSafe([-5, -1])];`, `["+/8=","-_8="]`},
		{"base64Decode", `return Utilities.base64Decode('SGk=');`, `[72,105]`},
		{"base64Decode signed", `return Utilities.base64DecodeWebSafe('-_8=');`, `[-5,-1]`},
		{"base64Decode as text", `return Utilities.newBlob(Utilities.base64Decode('w6k=')).getDataAsString();`, `"é"`},
		{"base64Decode bad", `return Utilities.base64Decode('!!');`, `Exception: Could not decode string.`},
		{"MD5", hex + `return hex(Utilities.computeDigest(Utilities.DigestAlgorithm.MD5, 'abc'));`, `"900150983cd24fb0d6963f7d28e17f72"`},
		{"SHA_256", hex + `return hex(Utilities.computeDigest(Utilities.DigestAlgorithm.SHA_256, 'abc'));`,
			`"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"`},
		{"SHA_1 of bytes", hex + `return hex(Utilities.computeDigest(Utilities.DigestAlgorithm.SHA_1, [97, 98, 99]));`, `"a9993e364706816aba3e25717850c26c9cd0d89d"`},
		{"MD2 not offered", `return Utilities.computeDigest(Utilities.DigestAlgorithm.MD2, 'abc');`,
			`Exception: The sandbox does not offer the digest algorithm MD2: use MD5, SHA_1, SHA_256, SHA_384 or SHA_512.`},
		{"HMAC SHA-256", hex + `return hex(Utilities.computeHmacSha256Signature('The quick brown fox jumps over the lazy dog', 'key'));`,
			`"f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8"`},
		{"HMAC MD5", hex + `return hex(Utilities.computeHmacSignature(Utilities.MacAlgorithm.HMAC_MD5, 'The quick brown fox jumps over the lazy dog', 'key'));`,
			`"80070713463e7749b90c2dc24911e275"`},
		{"formatDate ISO in Tokyo", `return Utilities.formatDate(` + when + `, 'Asia/Tokyo', "yyyy-MM-dd'T'HH:mm:ss.SSSXXX");`, `"2026-11-20T21:05:31.204+09:00"`},
		{"formatDate RFC 822 in New York", `return Utilities.formatDate(` + when + `, 'America/New_York', 'EEE, d MMM yyyy HH:mm:ss Z');`, `"Fri, 20 Nov 2026 07:05:31 -0500"`},
		{"formatDate names", `return Utilities.formatDate(` + when + `, 'GMT', "EEEE MMMM dd, h:mm a z ''yy");`, `"Friday November 20, 12:05 PM GMT '26"`},
		{"formatDate custom zone", `return Utilities.formatDate(` + when + `, 'GMT+05:30', 'HH:mm z');`, `"17:35 GMT+05:30"`},
		{"formatDate script zone", `return Utilities.formatDate(` + when + `, Session.getScriptTimeZone(), 'HH:mm zzz');`, `"12:05 GMT"`},
		{"formatDate bad pattern", `return Utilities.formatDate(` + when + `, 'GMT', 'yyyy-bb');`, `Exception: Illegal pattern character 'b'`},
		{"formatDate no date", `return Utilities.formatDate('2026-11-20', 'GMT', 'yyyy');`,
			`Exception: The parameters (String,String,String) don't match the method signature for Utilities.formatDate.`},
		{"formatString", `return Utilities.formatString('%s has %d items (%05.1f%%)', 'cart', 3, 2.25);`, `"cart has 3 items (002.3%)"`},
		{"newBlob", `var b = Utilities.newBlob('héllo', 'text/plain', 'a.txt');
return [b.getBytes().length, b.getDataAsString(), b.getContentType(), b.getName(), b.setName('b.txt') === b, b.getName(), String(b)];`,
			`[6,"héllo","text/plain","a.txt",true,"b.txt","Blob"]`},
		{"newBlob of bytes", `return Utilities.newBlob([104, 105]).getDataAsString();`, `"hi"`},
		{"parseCsv", `return Utilities.parseCsv('a,b\n"c,d",e\n');`, `[["a","b"],["c,d","e"]]`},
		{"parseCsv delimiter", `return Utilities.parseCsv('a;b', ';');`, `[["a","b"]]`},
		{"sleep", `var t = Date.now(); Utilities.sleep(50); return Date.now() - t >= 50;`, `true`},
		{"sleep too long", `Utilities.sleep(300001);`, `Exception: Invalid argument: milliseconds. The maximum allowed value is 300000.`},
		{"jsonStringify", `return Utilities.jsonParse(Utilities.jsonStringify({a: [1]})).a[0];`, `1`},
	})
	r := runJS(t, newMemHost(), "UTC", "function f() { return Utilities.getUuid(); }", "f")
	if !regexp.MustCompile(`^"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"$`).MatchString(outcome(r)) {
		t.Errorf("getUuid: got %s; want a version 4 UUID", outcome(r))
	}
}
