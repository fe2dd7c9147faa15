// What the pages' scripts share, in one place (window.mcr), loaded before them on every page
// (base.html) and on the hall's screen:
// - mcr.text(el, name, values): a text the page wrote for the script, translated, in the
//   element's data-text-NAME attribute, its "%(key)s" filled from values;
// - mcr.countdown(selector): the session clock of the element the selector finds, counting
//   down without asking the server.
(function () {
  "use strict";
  var mcr = window.mcr || {};

  mcr.text = function (el, name, values) {
    var t = (el && el.getAttribute("data-text-" + name)) || "";
    Object.keys(values || {}).forEach(function (k) { t = t.split("%(" + k + ")s").join(values[k]); });
    return t;
  };

  function pad(n) { return (n < 10 ? "0" : "") + n; }

  // The clock element says when the time ends (data-clock-ends), what the server's clock
  // read when it sent it (data-clock-now: the gap to this device's clock corrects a device
  // set to the wrong time, so it keeps time offline) and the session's length; it holds
  // [data-clock-left] (the time left, or its data-text-up once the time is up) and may hold
  // [data-clock-label] ("Time left"), hidden once the time is up. The element is found
  // again at each tick: one that the page swapped in (the screen's poll, the sheet's
  // refresh after a save, extra time given meanwhile) is read as it arrives, and a clock that
  // said "Time is up" counts again.
  // With the gong (data-clock-gong, when it sounds), the page's parts marked
  // data-clock-until="gong" show until it sounds and those marked data-clock-from="gong"
  // from then on; data-clock-until/from="end" likewise at the end of the time: the page
  // says "the gong has sounded" or "time is up" at that second, without a reload.
  mcr.countdown = function (selector) {
    var shown = null;
    var offset = 0;
    function passed(moment, yes) {
      document.querySelectorAll("[data-clock-until=" + moment + "]").forEach(function (el) { el.hidden = yes; });
      document.querySelectorAll("[data-clock-from=" + moment + "]").forEach(function (el) { el.hidden = !yes; });
    }
    function tick() {
      var clock = document.querySelector(selector);
      var wait = 1000;
      if (clock && clock !== shown) {
        // The gap is taken when the clock came: now for one swapped in, and for the page's
        // own unless it is a copy shown from the device (offline.js), which came when kept.
        var came = Date.now();
        var kept = !shown && document.querySelector("[data-offline-line][data-page-source=device]");
        if (kept && !isNaN(Date.parse(kept.dataset.keptAt))) came = Date.parse(kept.dataset.keptAt);
        shown = clock;
        offset = Date.parse(clock.dataset.clockNow) - came;
      }
      var ends = clock ? Date.parse(clock.dataset.clockEnds) : NaN;
      var total = clock ? parseInt(clock.dataset.clockTotal, 10) : NaN;
      if (!isNaN(ends) && !isNaN(offset) && !isNaN(total)) {
        var remaining = ends - (Date.now() + offset);
        var left = Math.max(0, Math.min(Math.ceil(remaining / 1000), total));
        clock.classList.toggle("time-up", left === 0);
        var gong = Date.parse(clock.dataset.clockGong);
        if (!isNaN(gong)) passed("gong", Date.now() + offset >= gong);
        passed("end", left === 0);
        var label = clock.querySelector("[data-clock-label]");
        if (label) label.hidden = left === 0;
        clock.querySelector("[data-clock-left]").textContent = left === 0
          ? mcr.text(clock, "up")
          : Math.floor(left / 3600) + ":" + pad(Math.floor(left / 60) % 60) + ":" + pad(left % 60);
        // Wake when the shown second changes, not on a drifting interval.
        if (left > 0) wait = (remaining % 1000 || 1000) + 20;
      }
      setTimeout(tick, wait);
    }
    tick();
  };

  window.mcr = mcr;
})();
