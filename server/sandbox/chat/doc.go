// Package chat is the sandbox model behind POST /v1/chat/completions: a
// deterministic stand-in for the v0 chat completions API (OpenAI wire format)
// that writes web applications. The server mounts it at /sandbox/chat, so an
// OpenAI client whose base URL is http://host/sandbox/chat/v1 talks to it
// unchanged.
//
// # Requests
//
// Every request needs "Authorization: Bearer <key>" (401 otherwise) and the
// model ModelID ("v0-1.0-md"; another is a 404 model_not_found that names
// both). messages take the roles user, assistant, system (developer is read
// as system) and tool; content is a string or an array of
// {"type":"text","text":…} and {"type":"image_url","image_url":{"url":"data:image/png;base64,…"}}
// blocks. stream, stream_options.include_usage, tools, tool_choice,
// parallel_tool_calls, max_tokens, max_completion_tokens and response_format
// are honoured; other fields are accepted and ignored. A tool message must
// answer a call of the assistant message before it (400 otherwise, as
// OpenAI's). Errors use OpenAI's shape, {"error":{"message","type","param",
// "code"}}, and name a wrong type as OpenAI does ("expected a string, but got
// an integer instead"), never with a Go type.
//
// # Structured outputs
//
// response_format json_schema answers a JSON value that validates against the
// schema, generated from the schema alone (placeholders such as "example" and
// user@example.com, never a value made up from the prompt); json_object
// answers the app as {"title","plan","html"} and, as OpenAI does, needs the
// word JSON in the messages. See format.go.
//
// # Answers
//
// The answer is Markdown: acknowledgements (images, tool results), a short
// plan, then one ```html block holding a complete single-file app (inline
// CSS and JS, no external resources). Prompt words choose the sections, and
// several combine: form (contact, signup, survey…), list (todo, tasks,
// checklist…), table (spreadsheet, sortable…), chart (graph, plot; "line
// chart" starts in line mode), timer (stopwatch; countdown and pomodoro count
// down, "25 minutes" sets the time), counter (tally, clicker…), gallery
// (photos, images, portfolio…) and dashboard (analytics, metrics…: summary
// cards, chart and table). With no such word the kind is drawn from the
// request's hash (a prompt that is only an image gets a gallery). Later user messages add to the kinds of earlier ones. The
// prompt's other words name the app and its sample records. The same request
// always gets the same answer: every choice comes from a PRNG seeded with a
// hash of the messages, tools and tool_choice (only the id and created
// differ).
//
// # Long answers
//
// The size of the inline data set, and so of the answer, follows the prompt:
//
//   - "N rows" (or items, entries, records, tasks, cards, photos, points,
//     products, users…, 1 to 20,000) sets the number of records;
//   - "long", "large", "big", "huge", "many" or "lots" mean 100 records;
//   - "N tokens" or "Nk tokens" (e.g. "write a 32000 token answer") grows
//     the data set until the answer is about N tokens long.
//
// When the kinds asked for show no data (form, counter, timer), a table is
// added to hold it. Output stops at the budget — max_completion_tokens or
// max_tokens if sent, capped at Options.MaxOutputTokens (32,000) and at what
// the context window leaves — with finish_reason "length". So "write a 32000
// token answer" streams exactly 32,000 tokens and ends with "length", and
// "write a 30000 token answer" ends near 30,000 tokens with "stop" and a
// complete app.
//
// # Tokens
//
// The tokenizer (tokens.go) is deterministic and vocabulary-free: runs of up
// to eight letters or digits, or single other characters, each optionally
// led by one space, and runs of other whitespace. Streamed deltas are single
// tokens and concatenate to the answer. usage counts answer tokens with it;
// prompt_tokens estimates the conversation: tokens of every text, 4 per
// message, 3 to prime the answer, the tool definitions, and for each image 85
// plus 170 per 512-pixel tile (OpenAI's high-detail rule). A conversation
// over the context window (128,000) is a 400 context_length_exceeded.
//
// # Streaming
//
// With "stream": true the answer is Server-Sent Events: a first
// chat.completion.chunk whose delta has the role, one chunk per token (or
// tool-call fragment), a last chunk with finish_reason, a usage chunk with
// empty choices when stream_options.include_usage is set, then
// "data: [DONE]". Chunks are flushed one by one and paced at
// Options.TokensPerSecond; the stream stops as soon as the client goes.
//
// # Images
//
// Image blocks must be base64 data URLs. PNG, JPEG, GIF and WebP are decoded
// in full; the answer says what it sees ("I see a PNG image, 64×48 pixels")
// and a gallery gives it the first tile. An image that does not decode is a
// 400 whose message and param name messages[i].content[j].
//
// # Tools
//
// Function tools are called when tool_choice names one, when it is
// "required", or (under "auto") when the last user message mentions a tool
// by name or asks to "use a tool". Arguments are generated from the tool's
// JSON Schema (see argGen) and validate against it. A streamed call sends id,
// type and name first with empty arguments, then argument fragments, and
// ends with finish_reason "tool_calls". When the conversation ends with tool
// messages, the answer quotes what each tool returned and shows it in the
// app.
package chat
