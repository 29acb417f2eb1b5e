package op

import (
	"net/http"

	"loupe/app/ui"
)

// answerAnnouncement is what the response panel's live region says: the status of each answer
// once it has arrived ("Response 200 OK, 1.2 kB in 35 ms"), nothing while one is on its way, so
// that every answer is announced once.
func answerAnnouncement(ex *Exchange, sending bool) string {
	if ex == nil || sending {
		return ""
	}
	if ex.Status == 0 {
		return "No response: " + ex.Err
	}
	text := ex.StatusText
	if text == "" {
		text = http.StatusText(ex.Status)
	}
	return "Response " + ui.Itoa(ex.Status) + " " + text + ", " + ui.HumanSize(len(ex.Body)) + " in " + ui.HumanDuration(ex.Duration)
}
