// The site's service worker (tournament/views/offline.py, docs/offline.md). It keeps on the
// device the site's scripts and styles, and the pages the server marks as kept (the table's
// sheet, the referee's home, the fan calculator, a player's own page) as they were last
// loaded, so that a tablet reloaded while the hall's network is down still shows them. The
// server is always asked first: what is kept is shown only when it does not answer.
// Everything kept belongs to one release: a new release is a new script, installed in this
// one's place, and what this one kept is dropped.
"use strict";
var CONFIG = {{ config|safe }};
var FILES = "mcr-files-" + CONFIG.release;
var PAGES = "mcr-pages-" + CONFIG.release;
// A page or file the server has not sent within this many milliseconds is shown as kept
// (when it is): a hall's Wi-Fi that holds the connection without passing anything through is
// as good as down. Without a kept copy, the network is waited for as long as it takes.
var WAIT = 4000;

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(FILES)
      .then(function (cache) { return cache.addAll(CONFIG.static); })
      .then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) {
        return name.indexOf("mcr-") === 0 && name !== FILES && name !== PAGES;
      }).map(function (name) { return caches.delete(name); }));
    }).then(function () { return self.clients.claim(); })
  );
});

// What a page is kept under: its address without query or fragment.
function pageKey(request) {
  var url = new URL(request.url);
  return url.origin + url.pathname;
}

// A page the server marks as kept replaces the copy kept before, with the time it came.
function keep(request, response) {
  // Not a copy shown from the device: that one is kept already.
  var marked = response.headers.get(CONFIG.keptHeader) && !response.headers.get("X-MCR-Kept-At");
  if (!response.ok || !marked) return Promise.resolve();
  return response.clone().blob().then(function (body) {
    var headers = new Headers(response.headers);
    headers.set("X-MCR-Kept-At", new Date().toISOString());
    return caches.open(PAGES).then(function (cache) {
      return cache.put(pageKey(request), new Response(body, { status: 200, headers: headers }));
    });
  });
}

// The kept page, saying so: its offline line (templates/offline/_line.html) learns that it
// comes from the device, and since when.
function fromDevice(kept) {
  return kept.text().then(function (html) {
    var at = kept.headers.get("X-MCR-Kept-At") || "";
    html = html.replace('data-page-source="server"', 'data-page-source="device" data-kept-at="' + at + '"');
    var headers = new Headers(kept.headers);
    headers.delete("Content-Length");
    return new Response(html, { status: 200, headers: headers });
  });
}

// The network's answer; or, when it fails, keeps silent for WAIT or comes from a proxy whose
// server is away (502, 503, 504: a server restarting, the database away), what is kept
// (through ``shown``); the network's answer after all when nothing is kept.
function serverFirst(request, kept, shown) {
  var network = fetch(request).then(function (response) {
    if (response.status >= 502 && response.status <= 504) {
      return kept().then(function (copy) { if (copy) throw new Error("server away"); return response; });
    }
    return response;
  });
  var fallback = function () {
    return kept().then(function (copy) { return copy ? shown(copy) : network; });
  };
  var timer;
  var silence = new Promise(function (resolve) { timer = setTimeout(resolve, WAIT, "silent"); });
  return Promise.race([network, silence]).then(function (answer) {
    clearTimeout(timer);
    return answer === "silent" ? fallback() : answer;
  }, function () {
    clearTimeout(timer);
    return fallback();
  });
}

function keptPage(request) {
  return function () {
    return caches.open(PAGES).then(function (cache) { return cache.match(pageKey(request)); });
  };
}

function keptFile(request) {
  return function () {
    return caches.open(FILES).then(function (cache) { return cache.match(request, { ignoreSearch: true }); });
  };
}

function same(copy) { return copy; }

// The answer to give, and a copy of it for ``store`` to keep (taken before the page reads it).
function answer(event, answered, store) {
  var both = answered.then(function (response) { return { response: response, copy: response.clone() }; });
  event.respondWith(both.then(function (b) { return b.response; }));
  event.waitUntil(both.then(function (b) { return store(b.copy); }).catch(function () {}));
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "POST" && (url.pathname === CONFIG.logout || url.pathname === CONFIG.login)) {
    // Signed out, or another account signing in: the pages the last one saw are no longer
    // kept on the device.
    event.waitUntil(caches.delete(PAGES));
    return;
  }
  if (request.method !== "GET") return;
  var keepPage = function (copy) { return keep(request, copy); };
  if (url.pathname.indexOf(CONFIG.staticPrefix) === 0) {
    answer(event, serverFirst(request, keptFile(request), same), function (copy) {
      if (!copy.ok || copy.redirected) return null;
      return caches.open(FILES).then(function (cache) { return cache.put(request, copy); });
    });
  } else if (request.mode === "navigate") {
    answer(event, serverFirst(request, keptPage(request), fromDevice), keepPage);
  } else {
    // A page's own script asking for it again (the sheet after a save, a player's page's
    // poll): the server's answer only, kept when it is the whole page.
    answer(event, fetch(request), keepPage);
  }
});
