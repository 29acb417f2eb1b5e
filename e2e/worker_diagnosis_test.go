package e2e

import (
	"context"
	"fmt"
	"os"
	"syscall"
	"time"

	"github.com/chromedp/chromedp"
)

// workerDiagnosis says what the page's service worker and storage look like, for the message
// of a test that waited for the worker in vain: its registration's states, whether it controls
// the page, the cached resources, the origin's storage quota and the free disk space (Chromium
// lowers the quota when the disk fills, and a worker whose install cannot cache a module never
// takes the page).
func workerDiagnosis(ctx context.Context) string {
	c, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	got, err := chromedp.Run(c, chromedp.Evaluate[string](`(async () => {
		const r = await navigator.serviceWorker.getRegistration();
		const st = w => w ? w.state : "none";
		const est = navigator.storage && await navigator.storage.estimate();
		let cached = 0;
		for (const k of await caches.keys()) cached += (await (await caches.open(k)).keys()).length;
		return "worker: " + (r ? "installing " + st(r.installing) + ", waiting " + st(r.waiting) + ", active " + st(r.active) : "not registered") +
			"; controls the page: " + (navigator.serviceWorker.controller !== null) +
			"; cached resources: " + cached +
			(est ? "; storage: " + Math.round(est.usage / 1e6) + " MB used of a " + Math.round(est.quota / 1e6) + " MB quota" : "");
	})()`, chromedp.EvalAwaitPromise))
	if err != nil {
		got = fmt.Sprintf("the page's worker state could not be read: %v", err)
	}
	var fs syscall.Statfs_t
	if syscall.Statfs(os.TempDir(), &fs) == nil {
		got += fmt.Sprintf("; free disk: %d MB", fs.Bavail*uint64(fs.Bsize)/1e6)
	}
	return got
}
