package chat

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"strconv"
	"strings"
	"testing"
)

// webpGopher is golang.org/x/image/testdata/gopher-doc.1bpp.lossless.webp, a
// valid lossless WebP image.
const webpGopher = "UklGRrIBAABXRUJQVlA4TKUBAAAvSsAYAA8w//M///MfeJAkbXvaSG7m8Q3GfYSBJekwQztm/IcZlgwnmWImn2BK7aFmBtnVir6q" +
	"//8VOkFE/xm4baTIu8c48ArEo6+B3zFKYln3pqClSCKX0begFTAXFOLXHSyF8cCNcZEG4OywuA4KVVfJCiArU7GAgJI8+lJP/OKM" +
	"T/fBAjevg1cYB7YVkFuWga2lyPi5I0HFy5YTpWIHg0RZpkniRVW9odHAKOwosWuOGdxIyn2OvaCDvhg/we6TwadPBPbqBV58MsLm" +
	"MJ8yZnOWk8SRz4N+QoyPL+MnamzMvcE1rHNEr91F9GKZPVUcS9w7PhhH36suB9qPeYb/oLk6cuTiJ0wOK3m5h1cKjW6EVZCYMK7d" +
	"xcKCBdgP9HkKr9gkAO2P8GKZGWVdIAatQa+1IDpt6qyorVwdy01xdW8Jkfk6xjEXmVQQ+HQdFr6OKhIN34dXWq0+0qr6EJSCeeVL" +
	"H9+gvGTLyqM65PQ44ihzlTXxQKjKbAvshXgir7Lil9w4L2bvMycmjQcqXaMCO6BlY28i+FOLzbfI1vEqxAhotocAAA=="

// testImage is a w×h gradient.
func testImage(w, h int) *image.Paletted {
	img := image.NewPaletted(image.Rect(0, 0, w, h), color.Palette{color.Black, color.White, color.RGBA{R: 200, A: 255}})
	for y := range h {
		for x := range w {
			img.SetColorIndex(x, y, uint8((x+y)%3))
		}
	}
	return img
}

// encoded returns img in format (png, jpeg or gif).
func encoded(t *testing.T, format string, w, h int) []byte {
	t.Helper()
	var buf bytes.Buffer
	var err error
	switch format {
	case "png":
		err = png.Encode(&buf, testImage(w, h))
	case "jpeg":
		err = jpeg.Encode(&buf, testImage(w, h), nil)
	case "gif":
		err = gif.Encode(&buf, testImage(w, h), nil)
	}
	if err != nil {
		t.Fatalf("encode %s: %v", format, err)
	}
	return buf.Bytes()
}

// imageBody is a user message with a text block and one image block.
func imageBody(text, url string) map[string]any {
	return map[string]any{"model": ModelID, "messages": []any{map[string]any{"role": "user", "content": []any{
		map[string]any{"type": "text", "text": text},
		map[string]any{"type": "image_url", "image_url": map[string]any{"url": url, "detail": "auto"}},
	}}}}
}

// dataURL wraps data in a base64 data URL.
func dataURL(mime string, data []byte) string {
	return "data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(data)
}

func TestImagesAcknowledged(t *testing.T) {
	webp, err := base64.StdEncoding.DecodeString(webpGopher)
	if err != nil {
		t.Fatal(err)
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(webp))
	if err != nil {
		t.Fatalf("decode the WebP fixture: %v", err)
	}
	h := New(Options{Key: testKey})
	tests := []struct {
		name string
		url  string
		want string
	}{
		{"png", dataURL("image/png", encoded(t, "png", 64, 48)), "I see a PNG image, 64×48 pixels."},
		{"jpeg", dataURL("image/jpeg", encoded(t, "jpeg", 30, 20)), "I see a JPEG image, 30×20 pixels."},
		{"gif", dataURL("image/gif", encoded(t, "gif", 7, 9)), "I see a GIF image, 7×9 pixels."},
		{"webp", dataURL("image/webp", webp), "I see a WebP image, " + strconv.Itoa(cfg.Width) + "×" + strconv.Itoa(cfg.Height) + " pixels."},
		{"mime ignored", dataURL("image/jpeg", encoded(t, "png", 5, 5)), "I see a PNG image, 5×5 pixels."},
		{"unpadded url-safe", "data:image/png;base64," + base64.RawURLEncoding.EncodeToString(encoded(t, "png", 3, 2)), "I see a PNG image, 3×2 pixels."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := complete(t, h, imageBody("Make a gallery from this", tt.url))
			answer := d.content()
			if !strings.HasPrefix(answer, tt.want) {
				t.Errorf("answer starts %q; want %q", answer[:min(len(answer), 60)], tt.want)
			}
			if !strings.Contains(answer, "first gallery tile") || !strings.Contains(answer, `category: "Your images"`) {
				t.Error("the gallery does not use the image")
			}
			if d.Usage.PromptTokens < 85 {
				t.Errorf("prompt_tokens = %d; want the image counted (>= 85)", d.Usage.PromptTokens)
			}
		})
	}
}

func TestImageOnlyPromptIsAGallery(t *testing.T) {
	h := New(Options{Key: testKey})
	body := map[string]any{"model": ModelID, "messages": []any{map[string]any{"role": "user", "content": []any{
		map[string]any{"type": "image_url", "image_url": map[string]any{"url": dataURL("image/png", encoded(t, "png", 8, 8))}},
	}}}}
	p := parseApp(t, htmlBlock(t, complete(t, h, body).content()))
	if !p.kinds["gallery"] {
		t.Errorf("got sections %v; want a gallery", p.kinds)
	}
}

func TestBrokenImages(t *testing.T) {
	h := New(Options{Key: testKey})
	png8 := encoded(t, "png", 8, 8)
	tests := []struct {
		name, url, inMessage string
	}{
		{"bad base64", "data:image/png;base64,!!!notbase64", "base64"},
		{"not an image", dataURL("image/png", []byte("hello, world")), "not a PNG, JPEG, GIF or WebP image"},
		{"truncated png", dataURL("image/png", png8[:len(png8)-20]), "cannot be decoded"},
		{"remote url", "https://example.com/cat.png", "cannot download images"},
		{"not base64 data url", "data:image/png,rawbytes", "base64 data URL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := post(t, h, testKey, imageBody("look", tt.url))
			if rec.Code != 400 {
				t.Fatalf("status = %d; want 400", rec.Code)
			}
			e := errorOf(t, rec)
			if got := deref(e.Param); got != "messages[0].content[1]" {
				t.Errorf("param = %q; want messages[0].content[1]", got)
			}
			if !strings.Contains(e.Message, "messages[0].content[1]") || !strings.Contains(e.Message, tt.inMessage) {
				t.Errorf("message = %q; want it to name messages[0].content[1] and say %q", e.Message, tt.inMessage)
			}
		})
	}
}

func TestImageTokens(t *testing.T) {
	tests := []struct {
		w, h, want int
	}{
		{64, 48, 85 + 170},
		{1024, 1024, 85 + 170*4}, // 768×768: 2×2 tiles
		{4096, 2048, 85 + 170*6}, // 2048×1024, then 1536×768: 3×2 tiles
		{512, 513, 85 + 170*2},
	}
	for _, tt := range tests {
		if got := (imageInfo{width: tt.w, height: tt.h}).tokens(); got != tt.want {
			t.Errorf("%d×%d: got %d tokens; want %d", tt.w, tt.h, got, tt.want)
		}
	}
}
