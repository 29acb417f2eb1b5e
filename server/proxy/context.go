package proxy

import "context"

func contextWith(ctx context.Context, slug string) context.Context {
	return context.WithValue(ctx, slugKey{}, slug)
}
