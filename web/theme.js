// Loupe's theme, applied before first paint. The theme toggle (app/theme_toggle.go) keeps the
// choice in localStorage under "loupe.theme" and sets data-theme on <html>, which loupe.css
// follows; the wasm runs only after the page has painted, so this script, loaded without
// defer in the <head> after the stylesheet, sets the same attribute first. It is a file, not
// an inline script, because the Content-Security-Policy allows only scripts from the site.
(function () {
  "use strict";
  var theme = null;
  try {
    theme = window.localStorage.getItem("loupe.theme");
  } catch (e) {
    return; // storage disabled: follow the system, as the toggle does
  }
  if (theme === "light" || theme === "dark") {
    document.documentElement.setAttribute("data-theme", theme);
  }
})();
