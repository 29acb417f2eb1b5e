package all

import (
	"net/http"

	"loupe/server/sandbox/fromdoc"
)

// OwnOptions configures Own (fromdoc.BuildOptions).
type OwnOptions = fromdoc.BuildOptions

// Own builds the sandbox of an API of your own from its document alone (server/sandbox/fromdoc),
// as both hosts do: the Loupe server for an API with no base_url, and the static explorer's
// module of the APIs of your own (wasm/own) for every API of your own its catalog lists.
func Own(opts OwnOptions) (*fromdoc.Sandbox, error) { return fromdoc.Build(opts) }

var _ http.Handler = (*fromdoc.Sandbox)(nil)
