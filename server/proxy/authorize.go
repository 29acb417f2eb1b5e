package proxy

import (
	"context"
	"errors"
	"net/http"
)

// AuthError is why a user's own credential cannot be sent (API.Authorize): the call is answered
// with Status and a JSON error naming the API, Message and what to Check.
type AuthError struct {
	// Status is the HTTP status of the answer, such as 401.
	Status int
	// Message says what happened, as a sentence; Check says what to do.
	Message, Check string
}

// Error implements error.
func (e *AuthError) Error() string { return e.Message }

// authorize asks the API for the calling user's credential; nil when the call may go on.
func (p *Proxy) authorize(ctx context.Context, c *call) *refusal {
	if c.up.Authorize == nil {
		return nil
	}
	apply, err := c.up.Authorize(ctx, c.user)
	if err != nil {
		var ae *AuthError
		if errors.As(err, &ae) {
			return &refusal{ae.Status, ae.Message, ae.Check}
		}
		return &refusal{http.StatusBadGateway, c.up.slug + ": the user's credential could not be obtained", "the server's log"}
	}
	c.apply = apply
	return nil
}

// credential is how the call's credential is added: the user's own, else the operation's as
// its security says (OperationAuth), else the API's.
func (c *call) credential() func(*http.Request) {
	if c.apply != nil {
		return c.apply
	}
	if auth, ok := c.up.OperationAuth[c.op]; ok && c.op != "" {
		return auth.Apply
	}
	return c.up.Apply
}
