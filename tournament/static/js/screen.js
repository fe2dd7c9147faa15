// The hall's screen: htmx (loaded before this) fetches each panel in turn; this script keeps
// the session clock counting down between the polls and says when the server stops
// answering. Its only text, "Time is up", comes from the page (data-text-up), translated.
(function () {
  "use strict";
  // The clock the header showed last, and the gap between the server's clock when it sent
  // it and this computer's: a projector's computer set to the wrong time still counts right.
  var shown = null;
  var offset = 0;
  function pad(n) { return (n < 10 ? "0" : "") + n; }
  function tick() {
    var clock = document.querySelector("[data-screen-clock]");
    var wait = 1000;
    if (clock && clock !== shown) {
      shown = clock;
      offset = Date.parse(clock.dataset.clockNow) - Date.now();
    }
    if (clock) {
      var ends = Date.parse(clock.dataset.clockEnds);
      var total = parseInt(clock.dataset.clockTotal, 10);
      if (!isNaN(ends) && !isNaN(offset)) {
        var remaining = ends - (Date.now() + offset);
        var left = Math.max(0, Math.min(Math.ceil(remaining / 1000), total));
        clock.classList.toggle("time-up", left === 0);
        clock.querySelector("[data-clock-label]").hidden = left === 0;
        clock.querySelector("[data-clock-left]").textContent = left === 0
          ? clock.dataset.textUp
          : Math.floor(left / 3600) + ":" + pad(Math.floor(left / 60) % 60) + ":" + pad(left % 60);
        // Wake when the shown second changes, not on a drifting interval.
        if (left > 0) wait = (remaining % 1000 || 1000) + 20;
      }
    }
    setTimeout(tick, wait);
  }
  tick();

  // A poll without an answer leaves the panel as it was (htmx swaps nothing) and the next
  // poll asks again; meanwhile a small note says so.
  var offline = document.querySelector("[data-screen-offline]");
  function problem() { if (offline) offline.hidden = false; }
  document.body.addEventListener("htmx:sendError", problem);
  document.body.addEventListener("htmx:timeout", problem);
  document.body.addEventListener("htmx:responseError", problem);
  document.body.addEventListener("htmx:afterSwap", function () { if (offline) offline.hidden = true; });
})();
