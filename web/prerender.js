// prerender.js keeps the prerendered page useful while app.wasm loads. It runs in every
// page's head, before the body is parsed, and does three things until the wasm runs (go-app
// removes #app-wasm-loader once it does):
//
//   - It records what is typed into the page's fields, by element id. go-app does not hydrate:
//     when the wasm starts it replaces the prerendered elements with its own, empty ones. Each
//     new element with a recorded id gets the typed value back, through the input and change
//     events the app listens to, so the app's form state holds exactly what the field shows.
//     Focus and the caret go back to the field that had them.
//   - It marks the buttons, which need the wasm, aria-disabled (loupe.css shows them loading)
//     and keeps a submit (Enter in a field) from reloading the page and losing what was typed.
//   - Nothing else: links work without the wasm, and the page stays readable.
(function () {
  "use strict";
  const loaderID = "app-wasm-loader";
  let parsed = false; // the loader is at the end of the body: absent while the page is parsed
  const loading = () => !parsed || document.getElementById(loaderID) !== null;
  const typed = new Map(); // id -> {value} or {checked}
  let focusedID = "";
  let caret = null;

  function record(e) {
    const el = e.target;
    if (!loading() || !el || !el.id || !("value" in el) || el.tagName === "BUTTON") {
      return;
    }
    const kind = el.type === "checkbox" || el.type === "radio" ? { checked: el.checked } : { value: el.value };
    typed.set(el.id, { node: el, kind: kind });
    if (el.id === focusedID && typeof el.selectionStart === "number") {
      caret = el.selectionStart;
    }
  }
  document.addEventListener("input", record, true);
  document.addEventListener("change", record, true);
  document.addEventListener("submit", function (e) {
    if (loading()) {
      e.preventDefault();
    }
  }, true);

  function markButtons() {
    parsed = true;
    if (!loading()) {
      return;
    }
    for (const b of document.body.querySelectorAll("button")) {
      b.setAttribute("aria-disabled", "true");
    }
  }
  document.addEventListener("DOMContentLoaded", markButtons, { once: true });

  // After the takeover the app may render a field later (once its catalog is in) and, on its
  // first renders, set every field to its form state, which is still empty. So each recorded
  // value is given back, through the events the app listens to, whenever its new element does
  // not show it, until the user does something on the page (a key, a click) or ten seconds
  // have passed.
  function matches(el, kind) {
    return "checked" in kind ? el.checked === kind.checked : el.value === kind.value;
  }

  function apply(el, kind) {
    if ("checked" in kind) {
      el.checked = kind.checked;
      el.dispatchEvent(new Event("change", { bubbles: true }));
      return;
    }
    el.value = kind.value;
    el.dispatchEvent(new Event("input", { bubbles: true }));
    el.dispatchEvent(new Event("change", { bubbles: true }));
  }

  function settle(now, start) {
    for (const [id, rec] of typed) {
      const el = document.getElementById(id);
      if (!el || el === rec.node) {
        continue; // not rendered yet, or not replaced: it holds the value already
      }
      if (!rec.seen) {
        rec.seen = now;
        apply(el, rec.kind);
        if (id === focusedID) {
          el.focus();
          if (caret !== null && typeof el.setSelectionRange === "function") {
            try {
              el.setSelectionRange(caret, caret);
            } catch (err) {
              // a field type without a caret
            }
          }
        }
        continue;
      }
      if (!matches(el, rec.kind)) {
        apply(el, rec.kind);
      }
    }
    if (typed.size > 0 && now - start < 10000) {
      setTimeout(() => settle(performance.now(), start), 25);
    }
  }

  // What the user does after the takeover is the app's to handle: stop giving values back.
  const userActs = function (e) {
    if (!loading() && e.isTrusted) {
      typed.clear();
    }
  };
  document.addEventListener("keydown", userActs, true);
  document.addEventListener("pointerdown", userActs, true);
  document.addEventListener("focusin", function (e) {
    if (loading() && e.target && e.target.id) {
      focusedID = e.target.id;
    }
  }, true);
  const observer = new MutationObserver(function () {
    if (parsed && !loading()) {
      observer.disconnect();
      if (typed.size > 0) {
        const t = performance.now();
        settle(t, t);
      }
    }
  });
  observer.observe(document.documentElement, { childList: true, subtree: true });
})();
