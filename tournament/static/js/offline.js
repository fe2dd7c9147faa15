// The pages a device keeps for when the network is down (the table's sheet, the referee's
// home, the fan calculator, a player's own page; views/offline.py): this script installs the
// service worker that keeps them, and keeps the page's offline line true. The line says when
// the page is shown from the device (the service worker marks such a copy) and since when,
// or that the server has stopped answering while the page is open, and then that it answers
// again. Back, it tells the page's other scripts (the event "mcr:back-online").
(function () {
  "use strict";
  var line = document.querySelector("[data-offline-line]");
  if (!line) return;
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register(line.dataset.worker).catch(function () {});
    // A service worker newly in charge (the first, or a new release's) keeps this page as
    // the server sent it: asked for again, through it.
    navigator.serviceWorker.addEventListener("controllerchange", function () {
      if (line.dataset.pageSource === "server") {
        fetch(location.pathname, { credentials: "same-origin" }).catch(function () {});
      }
    });
  }

  var fromDevice = line.dataset.pageSource === "device";
  // When the server last answered this page: its copy's time when shown from the device.
  var contact = fromDevice ? new Date(line.dataset.keptAt) : new Date();
  if (isNaN(contact.getTime())) contact = new Date();

  // The time in the event's own zone (the device's when the page has none), with the day
  // when it was not today.
  function when(date) {
    var zone = line.dataset.timeZone || undefined;
    var lang = document.documentElement.lang || undefined;
    var options = { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: zone };
    var day = function (d) {
      return new Intl.DateTimeFormat("en-CA", { timeZone: zone }).format(d);
    };
    try {
      if (day(date) !== day(new Date())) {
        options.day = "numeric";
        options.month = "long";
      }
      return new Intl.DateTimeFormat(lang, options).format(date);
    } catch (error) {
      return date.toISOString().slice(11, 16);
    }
  }
  function say(name) {
    line.textContent = window.mcr.text(line, name, { time: when(contact) });
    line.dataset.state = name;
    line.hidden = false;
  }

  var down = false;
  var probe = null;
  var hide = null;
  function lost() {
    if (!down) say(fromDevice ? "device" : "lost");
    down = true;
    clearTimeout(hide);
    clearTimeout(probe);
    probe = setTimeout(ask, 10000);
  }
  function answered() {
    contact = new Date();
    if (!down) return;
    // A copy from the device of a page that does not bring itself up to date (the
    // referee's home) is loaded again; the sheet and a player's page refresh in place.
    if (fromDevice && line.hasAttribute("data-reload-when-back")) { location.reload(); return; }
    down = false;
    fromDevice = false;
    clearTimeout(probe);
    say("back");
    hide = setTimeout(function () { line.hidden = true; }, 5000);
    document.dispatchEvent(new CustomEvent("mcr:back-online"));
  }
  // Whether the server answers: a HEAD of this page, which the service worker lets through.
  function ask() {
    fetch(location.pathname, { method: "HEAD", cache: "no-store", credentials: "same-origin" })
      .then(answered, lost);
  }

  if (fromDevice) lost();
  window.addEventListener("offline", lost);
  window.addEventListener("online", function () { if (down) ask(); });
  // The pages' own requests say it too: htmx's (a player's page asking again) and the
  // sheet's sends (tablet.js).
  document.addEventListener("htmx:sendError", lost);
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail && event.detail.successful) answered();
  });
  document.addEventListener("mcr:unreachable", lost);
  document.addEventListener("mcr:reached", answered);
})();
