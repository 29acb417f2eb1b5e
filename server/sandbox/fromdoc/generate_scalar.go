package fromdoc

import (
	"encoding/base64"
	"fmt"
	"math"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/lucasjones/reggen"
)

// str makes a string: for a pattern, one the pattern matches (lucasjones/reggen, the
// generator libopenapi's own renderer uses); for a format, one of that format; else a
// realistic value for the property's name (realistic.go); then fitted to minLength and
// maxLength.
func (g *gen) str(m map[string]any, at string) (any, error) {
	lo, hi := 0, -1
	if n, ok := num(m, "minLength"); ok {
		lo = int(n)
	}
	if n, ok := num(m, "maxLength"); ok {
		hi = int(n)
	}
	if hi >= 0 && lo > hi {
		return nil, g.fail(at, fmt.Sprintf("minLength %d is above maxLength %d", lo, hi))
	}
	if p := str(m, "pattern"); p != "" {
		s, err := patternString(p, g.rng.Uint64(), lo, hi)
		if err != nil {
			return nil, g.fail(at, err.Error())
		}
		return s, nil
	}
	s := g.formatted(str(m, "format"))
	if s == "" {
		s = realistic(g.name(), g.rng)
	}
	return fitLength(s, lo, hi, str(m, "format") != ""), nil
}

// patternString makes a string of lo to hi characters (hi < 0: any) that the pattern matches,
// trying up to 24 seeds.
func patternString(pattern string, seed uint64, lo, hi int) (string, error) {
	re, err := regexp.Compile(pattern)
	if err != nil {
		return "", fmt.Errorf("pattern %q is not one the sandbox can read: %v", pattern, err)
	}
	limit := 8
	if hi >= 0 && hi < limit {
		limit = max(hi, 1)
	}
	for try := range 24 {
		gen, err := reggen.NewGenerator(pattern)
		if err != nil {
			return "", fmt.Errorf("pattern %q is not one the sandbox can make strings for: %v", pattern, err)
		}
		gen.SetSeed(int64(seed + uint64(try)*7919))
		s := gen.Generate(limit + try/4)
		n := utf8.RuneCountInString(s)
		if re.MatchString(s) && n >= lo && (hi < 0 || n <= hi) {
			return s, nil
		}
		// An unanchored pattern matches inside a longer string: pad a short one.
		if n < lo && !strings.HasSuffix(pattern, "$") {
			if p := s + strings.Repeat("x", lo-n); re.MatchString(p) && (hi < 0 || lo <= hi) {
				return p, nil
			}
		}
	}
	return "", fmt.Errorf("no string of the allowed length (%d to %s characters) matching pattern %q was found", lo, limitText(hi), pattern)
}

func limitText(hi int) string {
	if hi < 0 {
		return "any"
	}
	return fmt.Sprint(hi)
}

// fitLength pads or cuts s to lo..hi characters. A formatted value is cut only as a last resort.
func fitLength(s string, lo, hi int, formatted bool) string {
	n := utf8.RuneCountInString(s)
	if n < lo {
		s += strings.Repeat("x", lo-n)
	}
	if hi >= 0 && utf8.RuneCountInString(s) > hi {
		r := []rune(s)
		s = string(r[:hi])
	}
	_ = formatted
	return s
}

// formatted makes a value of a string format, or "" for a format it does not know.
func (g *gen) formatted(format string) string {
	r := g.rng
	switch format {
	case "date-time":
		return baseTime.Add(hours(r)).Format("2006-01-02T15:04:05Z")
	case "date":
		return baseTime.Add(hours(r)).Format("2006-01-02")
	case "time":
		return baseTime.Add(hours(r)).Format("15:04:05Z")
	case "duration":
		return fmt.Sprintf("P%dDT%dH", r.IntN(30)+1, r.IntN(24))
	case "email", "idn-email":
		first, last := pick(r, firstNames), pick(r, lastNames)
		return strings.ToLower(first+"."+last) + "@example.com"
	case "uuid":
		return uuidFrom(r.Uint64(), r.Uint64())
	case "uri", "url", "iri":
		return "https://example.com/" + strings.ToLower(pick(r, nouns)) + "s/" + fmt.Sprint(r.IntN(900)+100)
	case "uri-reference", "iri-reference", "uri-template":
		return "/" + strings.ToLower(pick(r, nouns)) + "s/" + fmt.Sprint(r.IntN(900)+100)
	case "hostname", "idn-hostname":
		return strings.ToLower(pick(r, nouns)) + ".example.com"
	case "ipv4":
		return fmt.Sprintf("192.0.2.%d", r.IntN(254)+1)
	case "ipv6":
		return fmt.Sprintf("2001:db8::%x", r.IntN(0xfffe)+1)
	case "byte":
		return base64.StdEncoding.EncodeToString([]byte(pick(r, nouns)))
	case "binary":
		return pick(r, nouns)
	case "password":
		return "s3cret-" + fmt.Sprint(r.IntN(9000)+1000)
	case "int32", "int64", "integer":
		return fmt.Sprint(r.IntN(1000) + 1)
	case "double", "float", "decimal", "number":
		return fmt.Sprintf("%d.%02d", r.IntN(1000), r.IntN(100))
	case "json-pointer":
		return "/" + strings.ToLower(pick(r, nouns))
	case "regex":
		return "^[a-z]+$"
	case "phone":
		return fmt.Sprintf("+1-202-555-%04d", r.IntN(10000))
	}
	return ""
}

// integer makes an integer within the schema's bounds and multipleOf.
func (g *gen) integer(m map[string]any, at string) (any, error) {
	lo, hi, err := g.bounds(m, at, true)
	if err != nil {
		return nil, err
	}
	step := 1.0
	if s, ok := num(m, "multipleOf"); ok && s > 0 {
		step = s
		if step != math.Trunc(step) {
			step = 1 // an integer is a multiple of a fraction only when it is; checked later
		}
	}
	v := realisticNumber(g.name(), g.rng, true)
	v = clampStep(v, lo, hi, step)
	if v < lo || v > hi {
		return nil, g.fail(at, fmt.Sprintf("no integer multiple of %g lies between %g and %g", step, lo, hi))
	}
	return int64(v), nil
}

// number makes a number within the schema's bounds and multipleOf.
func (g *gen) number(m map[string]any, at string) (any, error) {
	lo, hi, err := g.bounds(m, at, false)
	if err != nil {
		return nil, err
	}
	v := realisticNumber(g.name(), g.rng, false)
	if s, ok := num(m, "multipleOf"); ok && s > 0 {
		v = clampStep(v, lo, hi, s)
		if v < lo || v > hi {
			return nil, g.fail(at, fmt.Sprintf("no multiple of %g lies between %g and %g", s, lo, hi))
		}
		return v, nil
	}
	if v < lo || v > hi {
		if !math.IsInf(lo, -1) && !math.IsInf(hi, 1) {
			v = lo + (hi-lo)*0.5
		} else if v < lo {
			v = lo + math.Min(1, math.Abs(lo)*0.1+1)
		} else {
			v = hi - math.Min(1, math.Abs(hi)*0.1+1)
		}
		v = math.Max(lo, math.Min(hi, v))
	}
	return v, nil
}

// bounds returns the inclusive range the schema allows (OpenAPI 3.0's boolean
// exclusiveMinimum and 3.1's numeric one), narrowed for a format such as int32.
func (g *gen) bounds(m map[string]any, at string, integer bool) (float64, float64, error) {
	lo, hi := math.Inf(-1), math.Inf(1)
	eps := 1e-6
	if integer {
		eps = 1
	}
	if v, ok := num(m, "minimum"); ok {
		lo = v
		if boolean(m, "exclusiveMinimum") {
			lo += eps
		}
	}
	if v, ok := num(m, "exclusiveMinimum"); ok {
		lo = math.Max(lo, v+eps)
	}
	if v, ok := num(m, "maximum"); ok {
		hi = v
		if boolean(m, "exclusiveMaximum") {
			hi -= eps
		}
	}
	if v, ok := num(m, "exclusiveMaximum"); ok {
		hi = math.Min(hi, v-eps)
	}
	if integer {
		lo, hi = math.Ceil(lo), math.Floor(hi)
		if str(m, "format") == "int32" {
			lo, hi = math.Max(lo, math.MinInt32), math.Min(hi, math.MaxInt32)
		}
	}
	if lo > hi {
		return 0, 0, g.fail(at, fmt.Sprintf("the minimum %g is above the maximum %g", lo, hi))
	}
	return lo, hi, nil
}

// clampStep moves v into lo..hi on a multiple of step, when there is one.
func clampStep(v, lo, hi, step float64) float64 {
	v = math.Max(lo, math.Min(hi, v))
	k := math.Round(v / step)
	c := k * step
	if c < lo {
		c = math.Ceil(lo/step) * step
	}
	if c > hi {
		c = math.Floor(hi/step) * step
	}
	return c
}
