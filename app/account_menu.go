package app

import (
	"context"
	"encoding/json"
	"io"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/fetch"
	"loupe/app/ui"
)

// sessionURL answers who is signed in (server/access.Session).
const sessionURL = "/session"

// session is the part of GET /session the menu shows.
type session struct {
	User   string `json:"user"`
	Admin  bool   `json:"admin"`
	Mode   string `json:"mode"`
	Logout string `json:"logout"`
}

// accountMenu shows who is signed in on a shared deployment, with a Log out button when Loupe
// signed them in itself (a users file). Without access control it shows nothing.
type accountMenu struct {
	app.Compo

	who session
}

func newAccountMenu() *accountMenu { return &accountMenu{} }

// OnMount asks the server who is signed in. The static explorer has no server to ask.
func (m *accountMenu) OnMount(ctx app.Context) {
	if ui.StaticMode() {
		return
	}
	ctx.Async(func() {
		s, err := fetchSession()
		if err != nil {
			return // the menu stays empty: nothing else depends on it
		}
		ctx.Dispatch(func(app.Context) { m.who = s })
	})
}

func fetchSession() (session, error) {
	cctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := fetch.Do(cctx, fetch.Request{URL: sessionURL, Headers: []fetch.Header{{Name: "Accept", Value: "application/json"}}})
	if err != nil {
		return session{}, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(io.LimitReader(res.Body, 4<<10))
	if err != nil {
		return session{}, err
	}
	var s session
	if res.Status != 200 {
		return s, nil
	}
	return s, json.Unmarshal(b, &s)
}

// Render implements app.Composer.
func (m *accountMenu) Render() app.UI {
	if m.who.User == "" || m.who.Mode == "none" {
		return app.Div().ID("account").Class("account").Hidden(true)
	}
	role := "user"
	if m.who.Admin {
		role = "admin"
	}
	return app.Div().ID("account").Class("account").Body(
		app.Span().Class("account-user").Title("Signed in as "+m.who.User+" ("+role+")").Text(m.who.User),
		app.If(m.who.Admin, func() app.UI { return app.Span().Class("badge").Text("admin") }),
		app.If(m.who.Logout != "", func() app.UI {
			return app.Form().Method("post").Action(m.who.Logout).Class("account-logout").Body(
				app.Button().ID("logout").Type("submit").Class("btn btn-quiet btn-small").Text("Log out"),
			)
		}),
	)
}
