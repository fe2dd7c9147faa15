// A call for a referee from the table's sheet (views/table_calls.py), kept like a hand (see
// tablet.js): "Send" puts the call in a queue on the tablet (localStorage) and sends it in the
// background; the server out of reach, it waits ("Call waiting to send") and goes once the
// network is back (the "online" event, offline.js's "mcr:back-online"), a copy of the sheet
// reloaded from the device included. Each call carries a one-time key made in the page, so a
// call sent again is stored once. The panel of the table's calls is asked for again every
// 3 s while one is open ("not changed" costs a 304), after a call reaches the server and
// after the sheet's refresh in place (tablet.js, "sheet:refreshed"); none open, it rests.
// On a player's page only the keys are made here (its call is a plain form post).
// Without this script the forms post plainly and the page shows the state as loaded.
(function () {
  "use strict";
  var POLL = 3000;
  var POST_WAIT = 15000;

  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    var hex = Array.prototype.map.call(bytes, function (b) { return (b + 0x100).toString(16).slice(1); }).join("");
    return hex.slice(0, 8) + "-" + hex.slice(8, 12) + "-" + hex.slice(12, 16) + "-" + hex.slice(16, 20) + "-" + hex.slice(20);
  }
  // The page's keys are made here, not taken from the page as sent: a copy of the page kept
  // on the device carries the key of a call made from it before, which would be that call.
  function freshKey(form) {
    var key = form.querySelector("[name=key]");
    if (key && window.crypto) key.value = newKey();
  }
  document.querySelectorAll("[data-call-form]").forEach(freshKey);
  // A page the browser shows again from its memory (Back) runs no script: new keys then too.
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) document.querySelectorAll("[data-call-form]").forEach(freshKey);
  });

  var queueEl = document.querySelector("[data-calls-queue]");
  var panelOf = function () { return document.querySelector("[data-calls-panel][data-calls-url]"); };
  var first = panelOf();
  if (!queueEl || !first || !window.localStorage || !window.fetch || !window.URLSearchParams) return;
  var url = first.dataset.callsUrl;
  var storeKey = "mcr-calls:" + url;
  var sync = document.querySelector("[data-sync]");
  var login = sync ? sync.dataset.login : "/accounts/login/";
  var form = document.querySelector("[data-call-details] [data-call-form]");
  var text = window.mcr.text;

  function load() {
    try { return JSON.parse(localStorage.getItem(storeKey)) || []; } catch (e) { return []; }
  }
  function store(queue) {
    if (queue.length) localStorage.setItem(storeKey, JSON.stringify(queue));
    else localStorage.removeItem(storeKey);
  }
  function remove(key) { store(load().filter(function (e) { return e.key !== key; })); }
  function update(key, change) {
    store(load().map(function (e) { return e.key === key ? change(e) : e; }));
  }
  function csrf() {
    var field = document.querySelector("[name=csrfmiddlewaretoken]");
    return field ? field.value : sync ? sync.dataset.csrf : "";
  }

  // The calls kept on the tablet: waiting, or refused with the reason and what to do.
  function render() {
    var queue = load();
    var drawn = JSON.stringify(queue);
    if (queueEl.getAttribute("data-drawn") === drawn) return;
    queueEl.setAttribute("data-drawn", drawn);
    queueEl.textContent = "";
    queue.forEach(function (entry) {
      var item = document.createElement("li");
      item.className = "call call-" + entry.state;
      item.setAttribute("data-queued-call", entry.state);
      var what = document.createElement("strong");
      what.textContent = entry.state === "refused"
        ? text(queueEl, "refused", { reason: entry.reason || "" })
        : text(queueEl, "waiting");
      item.appendChild(what);
      if (entry.state === "refused") {
        [["retry", retry], ["discard", discard]].forEach(function (pair) {
          var button = document.createElement("button");
          button.type = "button";
          button.setAttribute("data-call-" + pair[0], entry.key);
          button.textContent = text(queueEl, pair[0]);
          button.addEventListener("click", function () { pair[1](entry.key); });
          item.appendChild(button);
        });
      }
      queueEl.appendChild(item);
    });
    queueEl.hidden = !queue.length;
  }
  function retry(key) {
    update(key, function (e) { e.state = "pending"; delete e.reason; return e; });
    render();
    now();
  }
  function discard(key) { remove(key); render(); }

  function post(address, fields) {
    var body = new URLSearchParams();
    fields.forEach(function (pair) { if (pair[0] !== "csrfmiddlewaretoken") body.append(pair[0], pair[1]); });
    body.append("csrfmiddlewaretoken", csrf());
    var stop = window.AbortController ? new AbortController() : null;
    var patience = stop && setTimeout(function () { stop.abort(); }, POST_WAIT);
    return fetch(address, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      signal: stop ? stop.signal : undefined,
      headers: { Accept: "application/json", "X-CSRFToken": csrf() },
    }).then(function (response) {
      clearTimeout(patience);
      if (response.status >= 500) throw new Error("server " + response.status);
      var json = (response.headers.get("Content-Type") || "").indexOf("application/json") === 0;
      var signedOut = response.redirected && response.url.indexOf(login) !== -1;
      if (!json && !signedOut && response.status < 300) throw new Error("answer cut off");
      return (json ? response.json() : Promise.resolve(null)).then(function (answer) {
        return { status: response.status, answer: answer, signedOut: signedOut };
      });
    }, function (failure) {
      clearTimeout(patience);
      throw failure;
    });
  }
  function firstReason(errors) {
    var names = Object.keys(errors || {});
    for (var i = 0; i < names.length; i++) {
      if (errors[names[i]] && errors[names[i]].length) return errors[names[i]][0];
    }
    return "";
  }

  // Sending, in order, with retries a little later each time while the server is away.
  var sending = false, again = false, delay = 0, timer = null;
  function later() {
    clearTimeout(timer);
    delay = Math.min(delay ? delay * 2 : 1000, 10000);
    timer = setTimeout(send, delay);
  }
  function send() {
    clearTimeout(timer);
    if (sending) { again = true; return; }
    again = false;
    var entry = load().filter(function (e) { return e.state === "pending"; })[0];
    render();
    if (!entry) return;
    sending = true;
    post(entry.url, entry.fields).then(function (result) {
      sending = false;
      delay = 0;
      document.dispatchEvent(new CustomEvent("mcr:reached"));
      if (result.answer && result.answer.called) {
        remove(entry.key);
      } else {
        var reason = result.answer ? firstReason(result.answer.errors)
          : result.signedOut ? text(queueEl, "signed-out")
          : result.status === 403 ? text(queueEl, "forbidden") : String(result.status);
        update(entry.key, function (e) { e.state = "refused"; e.reason = reason; return e; });
      }
      render();
      refreshPanel();
      send();
    }).catch(function () {
      sending = false;
      document.dispatchEvent(new CustomEvent("mcr:unreachable"));
      render();
      if (again) send();
      else later();
    });
  }
  function now() { delay = 0; send(); }

  // The panel as the server has it now; asked again every POLL while a call is open.
  var tag = null, polling = null, asking = false;
  function refreshPanel() {
    if (asking) return;
    asking = true;
    clearTimeout(polling);
    var headers = { Accept: "text/html" };
    if (tag) headers["If-None-Match"] = tag;
    fetch(url, { credentials: "same-origin", cache: "no-store", headers: headers }).then(function (r) {
      if (r.status === 304) return null;
      var signedOut = r.redirected && r.url.indexOf(login) !== -1;
      if (!r.ok || signedOut) return null;
      var fresh = r.headers.get("ETag");
      return r.text().then(function (html) { return { html: html, tag: fresh }; });
    }).then(function (answer) {
      asking = false;
      if (answer) {
        var page = new DOMParser().parseFromString(answer.html, "text/html");
        var panel = page.querySelector("[data-calls-panel]"), old = panelOf();
        if (panel && old) {
          old.replaceWith(document.importNode(panel, true));
          tag = answer.tag;
        }
      }
      schedule();
    }, function () {
      asking = false;
      schedule();
    });
  }
  function schedule() {
    clearTimeout(polling);
    var panel = panelOf();
    if (panel && panel.hasAttribute("data-call-open")) polling = setTimeout(refreshPanel, POLL);
  }

  // The hand a call is about starts as the hand being played: the entry form's, which moves
  // as hands are saved in place.
  function handNow() {
    var entry = document.querySelector("#hand-entry [name=number]");
    var hand = form.querySelector("[name=hand]");
    if (entry && hand && hand.value === hand.defaultValue) hand.value = entry.value;
  }
  if (form) {
    var details = form.closest("details");
    if (details) details.addEventListener("toggle", function () { if (details.open) handNow(); });
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var fields = [];
      new FormData(form).forEach(function (value, name) {
        if (typeof value === "string") fields.push([name, value]);
      });
      var key = form.querySelector("[name=key]").value;
      var queue = load();
      // A second tap on Send before the form closed: the same key, the same call.
      if (queue.some(function (e) { return e.key === key; })) return;
      queue.push({ key: key, url: form.action, fields: fields, state: "pending" });
      store(queue);
      form.reset();
      freshKey(form);
      if (details) details.open = false;
      render();
      now();
    });
  }
  // Cancel: sent in the background, the panel then read again; the server away, the button
  // comes back to be tapped again.
  document.addEventListener("submit", function (event) {
    var cancel = event.target.closest("[data-call-cancel]");
    if (!cancel) return;
    event.preventDefault();
    var button = cancel.querySelector("button");
    if (button) button.disabled = true;
    post(cancel.action, []).then(function () {
      document.dispatchEvent(new CustomEvent("mcr:reached"));
      refreshPanel();
    }).catch(function () {
      if (button) button.disabled = false;
      document.dispatchEvent(new CustomEvent("mcr:unreachable"));
    });
  });

  window.addEventListener("online", now);
  document.addEventListener("mcr:back-online", function () { now(); refreshPanel(); });
  document.addEventListener("sheet:refreshed", refreshPanel);
  window.addEventListener("pageshow", function () { render(); now(); });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") { now(); refreshPanel(); }
  });
  window.addEventListener("storage", function (event) { if (event.key === storeKey) render(); });
  render();
  now();
  schedule();
})();
