package site

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// ServerWorkerTemplate is go-app's service worker with the pages kept too, for a site served by
// Loupe's server. go-app's worker keeps the scripts and app.wasm (cache first, per version) but
// fetches every page but "/" from the network, so a repeat visit still waits a round trip for
// the page before anything shows. This one answers a page from its cache when it has it and
// fetches it again in the background for the next visit (stale while revalidate); a page's
// prerendered content changes only with the catalog, and the wasm renders from the current
// catalog as soon as it runs. The page a worker first takes control of is fetched once more
// on activation, so the first repeat visit already has it. Only navigations are cached, never
// a fetch of the app (/proxy, /catalog.json and the like go to the network as before).
//
// The worker answers app.wasm too, from its cache. Leaving it to the browser's HTTP cache while
// online (its address is versioned and it is sent immutable) was measured (issue 19, 10 paired
// rounds, old and new build interleaved): the repeat visit received app.wasm later (median
// 1.15x on Fast 4G, 1.55x on loopback: the browser inflates 2.6 MB of brotli where the worker
// hands over the raw wasm) and was usable no sooner (1.10x, 0.97x, within the noise), and an
// evicted HTTP cache would download it again where the worker's cache answers without the
// network. So the worker keeps it.
//
// Both workers install fresh copies (freshInstall): go-app's took what the browser's HTTP cache
// held, so a new build could be installed with the previous build's files under its version.
var ServerWorkerTemplate = strings.Replace(strings.Replace(strings.Replace(app.DefaultAppWorkerJS,
	goAppFetchWithCache, serverFetchWithCache, 1),
	goAppClaim, serverClaim, 1),
	goAppInstall, freshInstall, 1)

// goAppInstall is how go-app's worker installs: without event.waitUntil (the browser takes the
// worker as installed before its cache is filled) and from the HTTP cache.
const goAppInstall = `self.addEventListener("install", async (event) => {
  try {
    console.log("installing app worker {{.Version}}");
    await installWorker();
    await self.skipWaiting();
  } catch (error) {
    console.error("error during installation:", error);
  }
});

async function installWorker() {
  const cache = await caches.open(cacheName);
  await cache.addAll(resourcesToCache);
}`

// freshInstall replaces it: the install lasts until every resource is cached (a failure leaves
// the previous worker in place, and the browser tries again on a later visit), and each
// resource whose address does not name its build (the pages, app.js, the catalog) is fetched
// with cache "no-cache": revalidated with the server, so a copy in the HTTP cache is used only
// when the server says it is current (304), never a previous build's. The versioned assets
// (web/<version>/…, app.wasm among them) are taken as the HTTP cache has them: their address
// changes with their content, and the first visit's download is not repeated.
const freshInstall = `self.addEventListener("install", (event) => {
  console.log("installing app worker {{.Version}}");
  event.waitUntil(installWorker().then(() => self.skipWaiting()));
});

async function installWorker() {
  const cache = await caches.open(cacheName);
  await cache.addAll(resourcesToCache.map((url) => url.includes("/web/{{.Version}}/") ? url : new Request(url, { cache: "no-cache" })));
}`

const goAppClaim = `    await self.clients.claim(); // Ensure the service worker takes control of the clients
`

const serverClaim = goAppClaim + `    await cacheClientPages();
`

const serverFetchWithCache = `async function fetchWithCache(request) {
  const cachedResponse = await caches.match(request);
  if (request.mode === "navigate" && request.method === "GET") {
    const fresh = fetchPage(request);
    if (cachedResponse) {
      fresh.catch(() => {});
      return cachedResponse;
    }
    return await fresh;
  }
  if (cachedResponse) {
    return cachedResponse;
  }
  return await fetch(request);
}

// fetchPage fetches a page and keeps it when it is one of this site's, found.
async function fetchPage(request) {
  const response = await fetch(request);
  if (response.ok && !response.redirected && new URL(request.url).origin === self.location.origin) {
    const cache = await caches.open(cacheName);
    await cache.put(request, response.clone());
  }
  return response;
}

// cacheClientPages keeps the pages of the windows the worker has just taken control of.
async function cacheClientPages() {
  const windows = await self.clients.matchAll({ type: "window" });
  await Promise.all(windows.map(async (client) => {
    const url = new URL(client.url);
    url.hash = "";
    if (url.origin !== self.location.origin) {
      return;
    }
    try {
      await fetchPage(new Request(url.href, { credentials: "same-origin" }));
    } catch (err) {
      console.error("keeping", url.href, "failed:", err);
    }
  }));
}`
