// Package memnet is an in-memory net.Listener: an http.Server can serve on it and an
// http.Transport can dial it, so the proxy reaches the built-in sandboxes over real HTTP
// without a port.
package memnet

import (
	"context"
	"errors"
	"net"
	"sync"
)

// Listener is an in-memory net.Listener. The zero value is not usable; call Listen.
type Listener struct {
	conns  chan net.Conn
	closed chan struct{}
	once   sync.Once
}

// Listen returns a new in-memory listener.
func Listen() *Listener {
	return &Listener{conns: make(chan net.Conn), closed: make(chan struct{})}
}

// Accept implements net.Listener.
func (l *Listener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.closed:
		return nil, net.ErrClosed
	}
}

// Close implements net.Listener.
func (l *Listener) Close() error {
	l.once.Do(func() { close(l.closed) })
	return nil
}

// Addr implements net.Listener.
func (l *Listener) Addr() net.Addr { return addr{} }

// DialContext connects to the listener; its signature fits http.Transport.DialContext.
func (l *Listener) DialContext(ctx context.Context, _, _ string) (net.Conn, error) {
	client, server := net.Pipe()
	select {
	case l.conns <- server:
		return client, nil
	case <-l.closed:
		return nil, errors.New("memnet: listener closed")
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

type addr struct{}

func (addr) Network() string { return "memnet" }
func (addr) String() string  { return "memnet" }
