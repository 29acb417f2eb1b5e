// Command loupe serves the Loupe API playground: the app, the catalog, the credential-holding
// proxy and the built-in sandboxes, from one self-contained binary.
//
//	loupe [-addr 127.0.0.1:8080] [-config loupe.yaml] [-data DIR]
//	loupe walk <id or file> [-workflow id] [-input name=value]... [-config loupe.yaml]
//	loupe static -o DIR [-base /prefix/]   (the static explorer; see server.WriteStatic)
//	loupe help [walk | static]             (the usage text, usage.go)
//
// The configuration file (see server/config/loupe.example.yaml) and the LOUPE_* environment
// variables are read at start; an invalid value stops the start with the key's name. On SIGHUP,
// and when the file or a credential or users file changes, they are read again and the new
// credentials are used without a restart.
package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"loupe/server"
	"loupe/server/config"
)

func main() {
	os.Exit(cli(os.Args[1:], os.Stdout, os.Stderr))
}

// run serves the playground until SIGINT or SIGTERM.
func run(opts *serveOptions) error {
	addr, path, data := &opts.addr, &opts.config, &opts.data
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))

	load := func() (*config.Config, error) {
		c, err := config.Load(*path)
		if err != nil {
			return nil, err
		}
		if *data != "" {
			c.Server.DataDir = *data
		}
		if *addr != "" {
			c.Server.Addr = *addr
			if err := c.Validate(); err != nil { // the flag may make the address non-loopback
				return nil, err
			}
		}
		return c, nil
	}
	settings, err := load()
	if err != nil {
		return err
	}
	srv, err := server.New(server.Config{Settings: settings, Logger: log, ChatTokensPerSecond: settings.Server.Sandbox.ChatTokensPerSecond})
	if err != nil {
		return err
	}
	defer srv.Close()

	ln, err := net.Listen("tcp", settings.Server.Addr)
	if err != nil {
		return fmt.Errorf("listening on %s (server.addr): %w", settings.Server.Addr, err)
	}
	ln = server.ClearBadRequests(ln) // Loupe's own answer to an address Go's server cannot read
	// No WriteTimeout: an event stream may last as long as it keeps sending. ReadTimeout bounds
	// reading a request with its body (a slow upload), not the answer.
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 2 * time.Minute, IdleTimeout: 2 * time.Minute}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	var mu sync.Mutex
	reload := func(why string) {
		mu.Lock()
		defer mu.Unlock()
		next, err := load()
		if err == nil {
			err = srv.Reload(next)
		}
		if err != nil {
			log.Error("configuration not reloaded; the previous one stays", "why", why, "err", err)
			return
		}
		settings = next
		log.Info("configuration reloaded", "why", why)
	}
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-hup:
				reload("SIGHUP")
			}
		}
	}()
	go config.Watch(ctx, 2*time.Second, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return settings.Files()
	}, func() { reload("a configuration file changed") })

	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = hs.Shutdown(shutdown)
	}()
	log.Info("Loupe is serving", "url", "http://"+ln.Addr().String(), "config", settings.Path,
		"access", settings.Server.Access.Mode)
	if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
