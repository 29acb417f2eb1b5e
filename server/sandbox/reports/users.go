package reports

// The fixed customer of the dataset.
const (
	customerID  = "C03az79cb"
	ownerDomain = "example.com"
	myCustomer  = "my_customer" // customerId alias of the caller's own customer
)

// Organizational units and groups of the dataset's users, for orgUnitID and groupIdFilter
// (sent as id:<id>). The first org unit and group IDs are the documented examples.
const (
	orgEngineering = "03ph8a2z23yjui6"
	orgSales       = "03ph8a2z4k1xq7b"
	groupCalendar  = "03ph8a2z1eszr6a"
	groupSupport   = "03ph8a2z3m0b7qc"
)

// keyCaller is the OAuth client of the records whose actor has callerType KEY.
const keyCaller = "1234567890.apps.googleusercontent.com"

// keyCallerIP is the address the KEY caller acts from.
const keyCallerIP = "203.0.113.200"

// externalServerIP is the address of the external mail and calendar server in inbound interop
// records (their {IP_ADDRESS_IDENTIFIER}).
const externalServerIP = "192.0.2.250"

// user is a user of the customer: an actor of the dataset.
type user struct {
	email     string
	profileID string
	orgUnit   string
	groups    []string
	ips       []string // addresses the user acts from; the first is the usual one
	agent     string   // the user's usual browser
}

// Browsers and apps the users act from (user_agent values).
const (
	agentChromeLinux = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36"
	agentSafariMac   = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15"
	agentFirefoxWin  = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:132.0) Gecko/20100101 Firefox/132.0"
	agentChromeWin   = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36"
	agentAndroid     = "com.google.android.calendar/2024.46.0 (Linux; U; Android 15; Pixel 8)"
	agentIOS         = "com.google.calendar/24.46.0 iOS/18.1 (iPhone15,2)"
	agentAPIClient   = "google-api-go-client/0.5 (gzip)"
)

// users are the customer's users, in profile ID order. alice and carol act in the documented
// example with the addresses it shows.
var users = []*user{
	{"alice@example.com", "110000000000000000001", orgEngineering, []string{groupCalendar}, []string{"203.0.113.5", "2001:db8::5"}, agentChromeLinux},
	{"bob@example.com", "110000000000000000002", orgEngineering, []string{groupCalendar, groupSupport}, []string{"203.0.113.17"}, agentFirefoxWin},
	{"carol@example.com", "110000000000000000003", orgSales, []string{groupSupport}, []string{"198.51.100.24"}, agentSafariMac},
	{"dave@example.com", "110000000000000000004", orgSales, nil, []string{"198.51.100.77"}, agentChromeWin},
	{"erin@example.com", "110000000000000000005", orgEngineering, []string{groupSupport}, []string{"192.0.2.40"}, agentChromeLinux},
	{"frank@example.com", "110000000000000000006", orgSales, nil, []string{"192.0.2.41", "2001:db8:85a3::8a2e:370:7334"}, agentSafariMac},
}

// userByEmail returns the user with the given primary email.
func userByEmail(email string) *user {
	for _, u := range users {
		if u.email == email {
			return u
		}
	}
	return nil
}

// actorOf returns the actor object of a record by u, or of the KEY caller when u is nil.
func actorOf(u *user) actor {
	if u == nil {
		return actor{CallerType: "KEY", Key: keyCaller}
	}
	return actor{CallerType: "USER", Email: u.email, ProfileID: u.profileID}
}

// matchesKey reports whether the record's actor is the userKey (a primary email or profile
// ID). KEY callers match only "all".
func (r *record) matchesKey(userKey string) bool {
	if userKey == allUsers {
		return true
	}
	return r.user != nil && (r.user.email == userKey || r.user.profileID == userKey)
}

// inOrgUnit reports whether the record's actor belongs to the org unit.
func (r *record) inOrgUnit(id string) bool { return r.user != nil && r.user.orgUnit == id }

// inAnyGroup reports whether the record's actor belongs to one of the groups.
func (r *record) inAnyGroup(ids []string) bool {
	if r.user == nil {
		return false
	}
	for _, g := range r.user.groups {
		for _, id := range ids {
			if g == id {
				return true
			}
		}
	}
	return false
}
