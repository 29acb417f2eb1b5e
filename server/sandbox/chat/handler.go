package chat

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"time"
)

// ModelID is the one model the sandbox serves.
const ModelID = "v0-1.0-md"

// Limits of the model, used when Options leaves them zero.
const (
	DefaultMaxOutputTokens = 32000
	DefaultContextWindow   = 128000
)

// completionsPath is the only route, relative to the mount point.
const completionsPath = "/v1/chat/completions"

// maxBodyBytes bounds a request body; a full context window of text and a
// few large images fit well within it.
const maxBodyBytes = 64 << 20

// systemFingerprint is sent in every response and chunk.
const systemFingerprint = "fp_loupe_sandbox"

// Options configures the sandbox model. The zero value is a working model
// that accepts any key and answers without delay.
type Options struct {
	// Key is the API key that requests must send as "Authorization: Bearer
	// <Key>". If empty, any non-empty bearer token is accepted; a request
	// without one is still refused with 401. The key is compared in constant
	// time and never logged or echoed.
	Key string

	// TokensPerSecond paces streamed answers: each chunk holds one token and
	// is sent when the schedule start + n/TokensPerSecond is due. Zero or
	// negative means no delay (tests); the server passes 40. Non-streaming
	// answers are never delayed.
	TokensPerSecond float64

	// MaxOutputTokens caps the tokens of any answer; an answer that would be
	// longer stops there with finish_reason "length". max_tokens and
	// max_completion_tokens in a request can lower it, not raise it. Zero or
	// negative means DefaultMaxOutputTokens (32,000).
	MaxOutputTokens int

	// ContextWindow is the most tokens a conversation (messages, images and
	// tool definitions, estimated as the package doc describes) plus its
	// answer may hold; a longer one is refused with 400
	// context_length_exceeded. Zero or negative means DefaultContextWindow
	// (128,000).
	ContextWindow int

	// Now returns the current time for the "created" field. Nil means
	// time.Now.
	Now func() time.Time
}

// handler serves the sandbox model.
type handler struct {
	opts  Options
	now   func() time.Time                                 // monotonic clock for pacing
	sleep func(ctx context.Context, d time.Duration) error // pacing delay
	calls atomic.Uint64                                    // makes completion ids unique
}

// New returns the handler for POST /v1/chat/completions (paths are relative
// to where it is mounted: the server strips /sandbox/chat).
func New(opts Options) http.Handler {
	if opts.MaxOutputTokens <= 0 {
		opts.MaxOutputTokens = DefaultMaxOutputTokens
	}
	if opts.ContextWindow <= 0 {
		opts.ContextWindow = DefaultContextWindow
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &handler{opts: opts, now: time.Now, sleep: sleepContext}
}

// ServeHTTP answers one request.
func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// Tolerate a mount that strips the slash too (StripPrefix("/sandbox/chat/")).
	if "/"+strings.TrimPrefix(r.URL.Path, "/") != completionsPath {
		writeError(w, &apiError{status: http.StatusNotFound, typ: "invalid_request_error",
			message: fmt.Sprintf("Invalid URL (%s %s).", r.Method, r.URL.Path)})
		return
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		writeError(w, &apiError{status: http.StatusMethodNotAllowed, typ: "invalid_request_error",
			message: fmt.Sprintf("Method %s is not allowed on %s; use POST.", r.Method, completionsPath)})
		return
	}
	if apiErr := h.authorize(r); apiErr != nil {
		w.Header().Set("WWW-Authenticate", `Bearer realm="loupe-sandbox"`)
		writeError(w, apiErr)
		return
	}
	job, apiErr := h.prepare(w, r)
	if apiErr != nil {
		writeError(w, apiErr)
		return
	}
	out := cut(job.reply, job.budget)
	meta := responseMeta{id: h.completionID(job.seed), created: h.opts.Now().Unix(), prompt: job.prompt}
	if job.req.Stream {
		includeUsage := job.req.StreamOptions != nil && job.req.StreamOptions.IncludeUsage
		h.stream(r.Context(), w, meta, out, includeUsage)
		return
	}
	writeCompletion(w, meta, out)
}

// job is a validated request and its answer.
type job struct {
	req    *chatRequest
	seed   [32]byte
	prompt int // prompt tokens
	budget int // output budget in tokens
	reply  reply
}

// prepare reads and validates the request and composes the answer.
func (h *handler) prepare(w http.ResponseWriter, r *http.Request) (*job, *apiError) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBodyBytes))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return nil, &apiError{status: http.StatusRequestEntityTooLarge, typ: "invalid_request_error",
				message: fmt.Sprintf("The request body is larger than %d bytes.", maxBodyBytes)}
		}
		return nil, invalidRequest("", "", "Could not read the request body: %v", err)
	}
	req, msgs, apiErr := decodeRequest(body)
	if apiErr != nil {
		return nil, apiErr
	}
	if apiErr := checkModel(req.Model); apiErr != nil {
		return nil, apiErr
	}
	choice, apiErr := checkTools(req)
	if apiErr != nil {
		return nil, apiErr
	}
	format, apiErr := checkFormat(req.ResponseFormat, msgs)
	if apiErr != nil {
		return nil, apiErr
	}
	j := &job{req: req, seed: seedOf(req, msgs), prompt: promptTokens(req, msgs)}
	if j.budget, apiErr = h.budget(req, j.prompt); apiErr != nil {
		return nil, apiErr
	}
	if j.reply, apiErr = compose(req, msgs, choice, format, j.seed, j.budget); apiErr != nil {
		return nil, apiErr
	}
	return j, nil
}

// authorize checks the bearer key.
func (h *handler) authorize(r *http.Request) *apiError {
	header := r.Header.Get("Authorization")
	scheme, key, _ := strings.Cut(strings.TrimSpace(header), " ")
	key = strings.TrimSpace(key)
	if !strings.EqualFold(scheme, "Bearer") || key == "" {
		return &apiError{status: http.StatusUnauthorized, typ: "invalid_request_error",
			message: "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY)."}
	}
	if h.opts.Key != "" && subtle.ConstantTimeCompare([]byte(key), []byte(h.opts.Key)) != 1 {
		return &apiError{status: http.StatusUnauthorized, typ: "invalid_request_error", code: "invalid_api_key",
			message: "Incorrect API key provided. Use the key configured for this sandbox."}
	}
	return nil
}

// checkModel accepts only ModelID.
func checkModel(model string) *apiError {
	switch model {
	case ModelID:
		return nil
	case "":
		return invalidRequest("model", "", "You must provide a model parameter. The supported model is `%s`.", ModelID)
	}
	return &apiError{status: http.StatusNotFound, typ: "invalid_request_error", param: "model", code: "model_not_found",
		message: fmt.Sprintf("The model `%s` does not exist or you do not have access to it. The supported model is `%s`.", model, ModelID)}
}

// promptTokens estimates the conversation's size: the tokenizer's count of
// every text, 4 tokens per message, the image estimate of each image, the
// tool definitions, and 3 tokens that prime the answer.
func promptTokens(req *chatRequest, msgs []message) int {
	n := 3
	for _, m := range msgs {
		n += 4 + countTokens(m.text)
		for _, im := range m.images {
			n += im.tokens()
		}
		for _, c := range m.toolCalls {
			n += countTokens(c.Function.Name) + countTokens(c.Function.Arguments)
		}
	}
	for _, t := range req.Tools {
		n += 8 + countTokens(t.Function.Name) + countTokens(t.Function.Description) + countTokens(string(t.Function.Parameters))
	}
	return n
}

// budget returns the answer's token budget, or the error for a conversation
// that does not fit the context window.
func (h *handler) budget(req *chatRequest, prompt int) (int, *apiError) {
	window := h.opts.ContextWindow
	if prompt > window {
		return 0, invalidRequest("messages", "context_length_exceeded",
			"This model's maximum context length is %d tokens. However, your messages resulted in %d tokens. Please reduce the length of the messages.", window, prompt)
	}
	requested, param := req.MaxCompletionTokens, "max_completion_tokens"
	if requested == nil {
		requested, param = req.MaxTokens, "max_tokens"
	}
	if requested == nil {
		return max(1, min(h.opts.MaxOutputTokens, window-prompt)), nil
	}
	if *requested < 1 {
		return 0, invalidRequest(param, "integer_below_min_value",
			"Invalid '%s': integer below minimum value. Expected a value >= 1, but got %d instead.", param, *requested)
	}
	budget := min(*requested, h.opts.MaxOutputTokens)
	if prompt+budget > window {
		return 0, invalidRequest("messages", "context_length_exceeded",
			"This model's maximum context length is %d tokens. However, you requested %d tokens (%d in the messages, %d in the completion). Please reduce the length of the messages or completion.",
			window, prompt+budget, prompt, budget)
	}
	return budget, nil
}

// completionID is unique per response and carries nothing secret.
func (h *handler) completionID(seed [32]byte) string {
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], h.calls.Add(1))
	sum := sha256.Sum256(append(seed[:], n[:]...))
	return "chatcmpl-" + hex.EncodeToString(sum[:12])
}

// sleepContext waits d or until ctx is done.
func sleepContext(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("pacing interrupted: %w", ctx.Err())
	}
}
