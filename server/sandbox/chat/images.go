package chat

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"image"
	_ "image/gif"  // registers GIF with image.Decode
	_ "image/jpeg" // registers JPEG with image.Decode
	_ "image/png"  // registers PNG with image.Decode
	"strings"

	_ "golang.org/x/image/webp" // registers WebP with image.Decode
)

// maxImagePixels bounds the images the sandbox decodes (25 megapixels, 100 MB
// as RGBA), so a crafted header cannot exhaust memory.
const maxImagePixels = 25_000_000

// imageInfo is what the model "sees" of an image block.
type imageInfo struct {
	format string // PNG, JPEG, GIF or WebP
	width  int
	height int
	bytes  int
}

// describe says what the image is, for example "a PNG image, 64×48 pixels".
func (im imageInfo) describe() string {
	return fmt.Sprintf("a %s image, %d×%d pixels", im.format, im.width, im.height)
}

// tokens estimates the image's share of the context window the way OpenAI
// bills high-detail images: 85 tokens plus 170 per 512-pixel tile after
// fitting the image in 2048×2048 and its short side in 768.
func (im imageInfo) tokens() int {
	w, h := float64(im.width), float64(im.height)
	if w <= 0 || h <= 0 {
		return 85
	}
	if m := max(w, h); m > 2048 {
		w, h = w*2048/m, h*2048/m
	}
	if m := min(w, h); m > 768 {
		w, h = w*768/m, h*768/m
	}
	tiles := int((w+511)/512) * int((h+511)/512)
	return 85 + 170*tiles
}

// formatNames maps image.Decode's format names to the names the answer uses.
var formatNames = map[string]string{"png": "PNG", "jpeg": "JPEG", "gif": "GIF", "webp": "WebP"}

// decodeImageURL decodes a base64 data URL (data:image/png;base64,…) and the
// image in it. Remote URLs are refused: the sandbox has no network.
func decodeImageURL(url string) (imageInfo, error) {
	rest, ok := strings.CutPrefix(url, "data:")
	if !ok {
		if strings.HasPrefix(url, "http://") || strings.HasPrefix(url, "https://") {
			return imageInfo{}, errors.New("the sandbox model cannot download images; send the image as a base64 data URL (data:image/png;base64,…)")
		}
		return imageInfo{}, errors.New("expected a base64 data URL (data:image/png;base64,…)")
	}
	meta, payload, ok := strings.Cut(rest, ",")
	if !ok || !strings.HasSuffix(meta, ";base64") {
		return imageInfo{}, errors.New("expected a base64 data URL (data:image/png;base64,…)")
	}
	data, err := decodeBase64(payload)
	if err != nil {
		return imageInfo{}, fmt.Errorf("the base64 data is invalid: %w", err)
	}
	return decodeImage(data)
}

// decodeBase64 accepts standard or URL-safe base64, padded or not, and
// ignores whitespace.
func decodeBase64(s string) ([]byte, error) {
	s = strings.Map(func(r rune) rune {
		if r == ' ' || r == '\n' || r == '\r' || r == '\t' {
			return -1
		}
		return r
	}, s)
	enc := base64.StdEncoding
	if strings.ContainsAny(s, "-_") {
		enc = base64.URLEncoding
	}
	if !strings.HasSuffix(s, "=") && len(s)%4 != 0 {
		enc = enc.WithPadding(base64.NoPadding)
	}
	data, err := enc.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("decode base64: %w", err)
	}
	return data, nil
}

// decodeImage fully decodes data, so a truncated or corrupt image is refused
// and not only one with a bad header.
func decodeImage(data []byte) (imageInfo, error) {
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return imageInfo{}, fmt.Errorf("the data is not a PNG, JPEG, GIF or WebP image (%w)", err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width*cfg.Height > maxImagePixels {
		return imageInfo{}, fmt.Errorf("the %s image is %d×%d pixels; at most %d pixels are accepted", formatNames[format], cfg.Width, cfg.Height, maxImagePixels)
	}
	if _, _, err := image.Decode(bytes.NewReader(data)); err != nil {
		return imageInfo{}, fmt.Errorf("the %s image cannot be decoded (%w)", formatNames[format], err)
	}
	return imageInfo{format: formatNames[format], width: cfg.Width, height: cfg.Height, bytes: len(data)}, nil
}
