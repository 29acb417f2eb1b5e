package op

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
)

// TestAnswersNeverRenderProxyURLs: an entity card's image and links, an embed page's images and
// links, and a JSON string leading to Loupe's proxy are not rendered as live URLs: showing
// them would make the browser call an API with the server's credential.
func TestAnswersNeverRenderProxyURLs(t *testing.T) {
	const target = "http://127.0.0.1:8080/proxy/cluster/_cluster/settings"
	card := `{"@context":{"@vocab":"http://schema.org/"},"@type":"ItemList","itemListElement":[{"@type":"EntitySearchResult","result":{"@id":"kg:/m/1","name":"X","@type":["Thing"],` +
		`"image":{"contentUrl":"` + target + `","url":"` + target + `","license":"` + target + `"},"url":"` + target + `"}}]}`
	v := bodyViewers[catalog.ViewerJSONLD](&catalog.Operation{}, 200, []byte(card)).(*jsonldViewer)
	if out := renderViewer(t, v); strings.Contains(out, "/proxy/") && (strings.Contains(out, `src="`+target) || strings.Contains(out, `href="`+target)) {
		t.Errorf("JSON-LD card: got %s; want no live URL to the proxy", out)
	}
	embed := `{"content":"<p><img src=\"` + target + `\"><img src=\"/proxy/cluster/x\"><a href=\"` + target + `\">x</a><img src=\"https://example.com/ok.png\"></p>","url":"` + target + `"}`
	out := app.HTMLString(bodyViewers[catalog.ViewerHTML](&catalog.Operation{}, 200, []byte(embed)))
	doc := strings.ReplaceAll(out, `\"`, `"`)
	for _, bad := range []string{`src="` + target, `src="/proxy/`, `href="` + target} {
		if strings.Contains(doc, bad) {
			t.Errorf("embed: got %s; want no %s", doc, bad)
		}
	}
	if !strings.Contains(doc, "https://example.com/ok.png") {
		t.Errorf("embed: got %s; want other images kept", doc)
	}
	if out := app.HTMLString(scalar(&jsonNode{kind: 's', text: target})); strings.Contains(out, "href=") {
		t.Errorf("JSON tree: got %s; want the proxy URL as text", out)
	}
}
