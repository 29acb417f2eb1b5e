package fromdoc

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"
)

// A string or number with no format nor pattern gets a value that looks like what its
// property's name says (an email, a first name, a city, a price), so an answer reads like
// data. The lists are small on purpose: the module runs in the browser too.

var (
	firstNames = []string{"Ada", "Grace", "Alan", "Edsger", "Barbara", "Donald", "Margaret", "Ken", "Radia", "Linus", "Frances", "Dennis"}
	lastNames  = []string{"Lovelace", "Hopper", "Turing", "Dijkstra", "Liskov", "Knuth", "Hamilton", "Thompson", "Perlman", "Torvalds", "Allen", "Ritchie"}
	cities     = []string{"Lisbon", "Nairobi", "Montreal", "Osaka", "Lyon", "Auckland", "Bogotá", "Tallinn"}
	countries  = []string{"Portugal", "Kenya", "Canada", "Japan", "France", "New Zealand", "Colombia", "Estonia"}
	nouns      = []string{"Report", "Garden", "Invoice", "Project", "Ticket", "Order", "Sensor", "Album", "Course", "Recipe"}
	adjectives = []string{"quarterly", "blue", "shared", "weekly", "urgent", "archived", "draft", "public"}
	companies  = []string{"Acme Corp", "Globex", "Initech", "Umbrella Labs", "Stark Industries", "Wayne Enterprises"}
	streets    = []string{"12 Harbour Road", "7 Mill Lane", "221B Baker Street", "42 Elm Street", "5 Rue de la Paix"}
)

// baseTime is the origin of generated dates: answers do not change with the clock.
var baseTime = time.Date(2024, 3, 1, 9, 0, 0, 0, time.UTC)

// hours returns a duration of up to a year, on the hour.
func hours(r *rand.Rand) time.Duration { return time.Duration(r.IntN(24*365)) * time.Hour }

// pick returns one of list.
func pick(r *rand.Rand, list []string) string { return list[r.IntN(len(list))] }

// uuidFrom formats two random words as a version 4 UUID.
func uuidFrom(a, b uint64) string {
	a = a&^0xf000 | 0x4000                     // version 4
	b = b&^(uint64(0xc)<<60) | uint64(0x8)<<60 // variant 10
	return fmt.Sprintf("%08x-%04x-%04x-%04x-%012x", a>>32, (a>>16)&0xffff, a&0xffff, b>>48, b&0xffffffffffff)
}

// normalize lowers a property name and drops its separators: first_name, firstName and
// First-Name are all "firstname".
func normalize(name string) string {
	return strings.NewReplacer("_", "", "-", "", " ", "", ".", "").Replace(strings.ToLower(name))
}

// realistic returns a string that looks like what a property called name holds.
func realistic(name string, r *rand.Rand) string {
	n := normalize(name)
	has := func(parts ...string) bool {
		for _, p := range parts {
			if strings.Contains(n, p) {
				return true
			}
		}
		return false
	}
	first, last := pick(r, firstNames), pick(r, lastNames)
	switch {
	case n == "":
		return strings.ToLower(pick(r, adjectives)) + " " + strings.ToLower(pick(r, nouns))
	case has("email", "mail"):
		return strings.ToLower(first+"."+last) + "@example.com"
	case has("firstname", "givenname", "forename"):
		return first
	case has("lastname", "surname", "familyname"):
		return last
	case has("username", "login", "handle", "nickname"):
		return strings.ToLower(first[:1] + last)
	case has("fullname", "displayname", "author", "owner", "contact", "person"):
		return first + " " + last
	case has("company", "organization", "organisation", "employer"):
		return pick(r, companies)
	case has("phone", "mobile", "fax", "tel"):
		return fmt.Sprintf("+1-202-555-%04d", r.IntN(10000))
	case has("url", "uri", "href", "link", "website", "homepage"):
		return "https://example.com/" + strings.ToLower(pick(r, nouns)) + "s/" + fmt.Sprint(r.IntN(900)+100)
	case has("city", "town"):
		return pick(r, cities)
	case has("country"):
		return pick(r, countries)
	case has("street", "address"):
		return pick(r, streets)
	case has("zip", "postal", "postcode"):
		return fmt.Sprintf("%05d", r.IntN(90000)+10000)
	case has("currency"):
		return "EUR"
	case has("language", "locale", "lang"):
		return "en"
	case has("timezone"):
		return "Europe/Lisbon"
	case has("color", "colour"):
		return fmt.Sprintf("#%06x", r.IntN(0x1000000))
	case strings.HasSuffix(n, "at") && len(n) > 4, has("date", "time", "timestamp", "created", "updated", "modified"):
		return baseTime.Add(hours(r)).Format("2006-01-02T15:04:05Z")
	case has("description", "summary", "comment", "message", "text", "body", "note", "detail", "reason"):
		return "A " + pick(r, adjectives) + " " + strings.ToLower(pick(r, nouns)) + " for " + first + "."
	case has("title", "subject", "label", "headline"):
		adj := pick(r, adjectives)
		return strings.ToUpper(adj[:1]) + adj[1:] + " " + strings.ToLower(pick(r, nouns))
	case has("token", "secret", "key", "hash", "signature", "etag", "checksum"):
		return fmt.Sprintf("%016x", r.Uint64())
	case n == "id" || strings.HasSuffix(n, "id") || strings.HasSuffix(n, "ids"):
		return fmt.Sprintf("%s_%06d", strings.ToLower(pick(r, nouns))[:3], r.IntN(1000000))
	case has("name"):
		return first + " " + last
	case has("status", "state"):
		return "active"
	case has("type", "kind", "category"):
		return strings.ToLower(pick(r, nouns))
	case has("version"):
		return fmt.Sprintf("%d.%d.%d", r.IntN(4)+1, r.IntN(10), r.IntN(10))
	}
	return strings.ToLower(pick(r, adjectives)) + " " + strings.ToLower(pick(r, nouns))
}

// realisticNumber returns a number that looks like what a property called name holds.
func realisticNumber(name string, r *rand.Rand, integer bool) float64 {
	n := normalize(name)
	has := func(parts ...string) bool {
		for _, p := range parts {
			if strings.Contains(n, p) {
				return true
			}
		}
		return false
	}
	var v float64
	switch {
	case has("age"):
		v = float64(r.IntN(60) + 18)
	case has("year"):
		v = float64(2000 + r.IntN(25))
	case has("month"):
		v = float64(r.IntN(12) + 1)
	case has("day"):
		v = float64(r.IntN(28) + 1)
	case has("port"):
		v = 8080
	case has("lat"):
		v = float64(r.IntN(180)-90) + 0.5
	case has("lon", "lng"):
		v = float64(r.IntN(360)-180) + 0.5
	case has("price", "amount", "cost", "total", "balance", "fee"):
		v = float64(r.IntN(50000)) / 100
	case has("percent", "ratio", "rate", "score"):
		v = float64(r.IntN(100))
	case has("count", "size", "quantity", "number", "num", "length", "total", "limit"):
		v = float64(r.IntN(50) + 1)
	case n == "id" || strings.HasSuffix(n, "id"):
		v = float64(r.IntN(1000) + 1)
	case strings.HasSuffix(n, "at") || has("time", "timestamp", "created", "updated"):
		v = float64(baseTime.Add(hours(r)).Unix())
	default:
		v = float64(r.IntN(100) + 1)
	}
	if integer {
		return float64(int64(v))
	}
	if v == float64(int64(v)) && !has("age", "year", "month", "day", "port", "count", "size", "quantity") {
		v += float64(r.IntN(100)) / 100
	}
	return v
}
