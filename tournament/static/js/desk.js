// The referees' desk (templates/desk/): the open calls kept up to date, and the ruling form's
// penalty filled from the offence chosen.
//
// The calls: asked for every 2 s with the ETag last given (If-None-Match), the server answers
// 304 while nothing changed; a new answer replaces the list. A call not seen before is marked
// "New" for a while, said in the aria-live line, rung (once the sound is on: browsers play
// nothing before a tap on the page) and counted in the title, "(3) Referees' desk". Each
// call's wait counts up every second from the time the server gave, corrected by the gap
// between the server's clock and this device's. Plain script, no htmx: a 304 must leave the
// list as it is, and the new rows must be told apart from the old, which htmx would not do.
(function () {
  "use strict";
  var NEW_FOR_MS = 60000;

  function calls(box) {
    var url = box.dataset.url;
    var etag = box.dataset.etag;
    var every = parseInt(box.dataset.pollMs, 10) || 2000;
    var title = box.dataset.title;
    var announce = document.querySelector("[data-desk-announce]");
    var stale = document.querySelector("[data-desk-stale]");
    var firstSeen = {};
    var offset = 0;
    var sound = null;

    function rows() { return box.querySelectorAll("[data-call]"); }

    function pad(n) { return (n < 10 ? "0" : "") + n; }

    function clock(seconds) {
      seconds = Math.max(0, Math.floor(seconds));
      var h = Math.floor(seconds / 3600), m = Math.floor(seconds / 60) % 60, s = seconds % 60;
      return h ? h + ":" + pad(m) + ":" + pad(s) : m + ":" + pad(s);
    }

    function tick() {
      var now = Date.now() + offset;
      box.querySelectorAll("[data-called-at]").forEach(function (time) {
        var called = Date.parse(time.dataset.calledAt);
        if (!isNaN(called)) time.textContent = clock((now - called) / 1000);
      });
    }

    function beep() {
      if (!sound || sound.state !== "running") return;
      var start = sound.currentTime;
      [0, 0.25].forEach(function (delay) {
        var tone = sound.createOscillator();
        var gain = sound.createGain();
        tone.frequency.value = 880;
        gain.gain.setValueAtTime(0.0001, start + delay);
        gain.gain.exponentialRampToValueAtTime(0.3, start + delay + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, start + delay + 0.2);
        tone.connect(gain);
        gain.connect(sound.destination);
        tone.start(start + delay);
        tone.stop(start + delay + 0.22);
      });
    }

    // What arrived: the server's clock, the new calls marked, said and rung, the title.
    function shown(first) {
      var part = box.querySelector("[data-now]");
      var serverNow = part ? Date.parse(part.dataset.now) : NaN;
      if (!isNaN(serverNow)) offset = serverNow - Date.now();
      var now = Date.now();
      var fresh = [];
      rows().forEach(function (row) {
        var id = row.dataset.call;
        if (!(id in firstSeen)) {
          firstSeen[id] = first ? 0 : now;
          if (!first) fresh.push(row);
        }
        var isNew = now - firstSeen[id] < NEW_FOR_MS;
        row.classList.toggle("new", isNew);
        var badge = row.querySelector("[data-new]");
        if (badge) badge.hidden = !isNew;
      });
      var count = rows().length;
      document.title = count ? "(" + count + ") " + title : title;
      if (fresh.length) {
        if (announce) {
          announce.textContent = fresh.map(function (row) {
            return mcr.text(box, "new", { what: row.dataset.announce });
          }).join(" ");
        }
        beep();
      }
      tick();
    }

    function poll() {
      fetch(url, {
        headers: { "If-None-Match": etag },
        credentials: "same-origin",
        cache: "no-store",
        redirect: "manual"
      }).then(function (answer) {
        if (answer.status === 304) return null;
        if (answer.status !== 200) throw new Error(String(answer.status));
        etag = answer.headers.get("ETag") || etag;
        return answer.text();
      }).then(function (html) {
        if (stale) stale.hidden = true;
        if (html !== null) box.innerHTML = html;
        shown(false);
      }).catch(function () {
        if (stale) stale.hidden = false;
      }).then(function () {
        setTimeout(poll, every);
      });
    }

    var button = document.querySelector("[data-desk-sound]");
    if (button && (window.AudioContext || window.webkitAudioContext)) {
      document.querySelector("[data-desk-sound-box]").hidden = false;
      button.addEventListener("click", function () {
        var on = button.getAttribute("aria-pressed") !== "true";
        if (on && !sound) sound = new (window.AudioContext || window.webkitAudioContext)();
        if (sound) (on ? sound.resume() : sound.suspend()).then(function () { if (on) beep(); });
        button.setAttribute("aria-pressed", on ? "true" : "false");
        button.textContent = mcr.text(button, on ? "off" : "on");
      });
    }

    shown(true);
    setInterval(tick, 1000);
    setTimeout(poll, every);
  }

  // The ruling form: an offence chosen fills the usual kind and points (unless the referee
  // typed points of their own) and shows the rules' figures beside the points.
  function rulingForm(form) {
    var data = document.getElementById("offence-penalties");
    var offences = data ? JSON.parse(data.textContent) : {};
    var texts = document.querySelector("[data-offence-penalties]");
    var offence = form.querySelector("[name=offence]");
    var kind = form.querySelector("[name=penalty_kind]");
    var points = form.querySelector("[name=penalty_points]");
    var figures = form.querySelector("[data-rules-figures]");
    var filled = "";
    if (!offence || !kind || !points) return;
    function chosen(fill) {
      var usual = offences[offence.value];
      if (figures) figures.textContent = usual ? mcr.text(texts, "figures", { figures: usual.figures }) : "";
      if (!fill || !usual) return;
      if (!points.value || points.value === filled) {
        kind.value = usual.kind;
        points.value = usual.points;
        filled = String(usual.points);
      }
    }
    offence.addEventListener("change", function () { chosen(true); });
    chosen(false);
  }

  var box = document.querySelector("[data-desk-calls]");
  if (box) calls(box);
  var form = document.querySelector("[data-ruling-form]");
  if (form) rulingForm(form);
})();
