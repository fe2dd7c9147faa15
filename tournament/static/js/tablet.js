// The tablet keeps working through Wi-Fi drops. "Save hand" with nothing waiting sends the
// entry at once: saved, the page moves to the next hand in place (the sheet's parts read
// from the server, no page load); the server out of reach, the entry is kept on the tablet
// (localStorage), the form readied for the next hand at once, and the kept entries are sent in
// order, with retries, until the server has them. Each entry carries its form's submission
// key, so sending it again never stores a second hand; the server stays the judge, and an
// entry it refuses is kept and shown for the referee to resolve, never dropped. The same key
// with other content (an edited entry whose first send was stored, its answer lost) is a
// conflict (409): shown with the hand as stored, never sent again by itself.
// Without this script the page posts the form as a plain HTML form.
(function () {
  "use strict";
  // Milliseconds a save may wait for the server's answer before it counts as unreachable.
  var POST_WAIT = 15000;
  var sync = document.querySelector("[data-sync]");
  if (!sync || !window.localStorage || !window.fetch || !window.URLSearchParams) return;
  var stateEl = document.querySelector("[data-sync-state]");
  var problems = sync.querySelector("[data-sync-problems]");
  var storeKey = "mcr-queue:" + sync.dataset.queue;
  var form = document.getElementById("hand-entry");
  if (form && !form.hasAttribute("data-background-save")) form = null;
  var scheduleEl = document.getElementById("hand-schedule");
  var schedule = scheduleEl ? JSON.parse(scheduleEl.textContent) : null;
  var text = window.mcr.text;

  // The queue: entries in the order they must reach the server.
  function load() {
    try { return JSON.parse(localStorage.getItem(storeKey)) || []; } catch (e) { return []; }
  }
  function store(queue) {
    if (queue.length) localStorage.setItem(storeKey, JSON.stringify(queue));
    else localStorage.removeItem(storeKey);
  }
  function update(key, change) {
    store(load().map(function (entry) { return entry.key === key ? change(entry) : entry; }));
  }
  function remove(key) {
    store(load().filter(function (entry) { return entry.key !== key; }));
  }
  // The highest hand this tablet delivered to this table: a copy of the sheet shown from the
  // device (offline.js) may be older than what the tablet sent since, and its form follows.
  var deliveredKey = "mcr-delivered:" + sync.dataset.queue;
  function lastDelivered() { return parseInt(localStorage.getItem(deliveredKey), 10) || 0; }
  function delivered(number) {
    if (number > lastDelivered()) localStorage.setItem(deliveredKey, String(number));
  }

  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    var bytes = new Uint8Array(16);
    (window.crypto || window.msCrypto).getRandomValues(bytes);
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    var hex = Array.prototype.map.call(bytes, function (b) { return (b + 0x100).toString(16).slice(1); }).join("");
    return hex.slice(0, 8) + "-" + hex.slice(8, 12) + "-" + hex.slice(12, 16) + "-" + hex.slice(16, 20) + "-" + hex.slice(20);
  }

  // What the page shows: the sync state, the refused entries, the sheet's waiting rows.
  function render() {
    var queue = load();
    var refused = queue.filter(function (e) { return e.state === "refused"; });
    var state = refused.length ? "refused" : queue.length ? "pending" : "saved";
    stateEl.setAttribute("data-sync-state", state);
    if (refused.length) stateEl.textContent = text(stateEl, "refused", { reason: refused[0].reason || "" });
    else if (queue.length === 1) stateEl.textContent = text(stateEl, "pending-one");
    else if (queue.length) stateEl.textContent = text(stateEl, "pending", { n: queue.length });
    else stateEl.textContent = text(stateEl, "saved");
    // The state is a small badge (in the hand's header while there is a form); the box of
    // refused entries shows only when there are some.
    stateEl.hidden = false;
    sync.hidden = !refused.length && !sync.contains(stateEl);
    // The refused entries drawn again only when they changed: a button the referee is about
    // to tap stays where it is while the page is told the same thing again.
    var drawn = JSON.stringify([!!form, refused]);
    if (problems.getAttribute("data-drawn") === drawn) { markRows(queue); return; }
    problems.setAttribute("data-drawn", drawn);
    problems.textContent = "";
    refused.forEach(function (entry) {
      var item = document.createElement("li");
      item.setAttribute("data-refused-entry", entry.number);
      var what = document.createElement("strong");
      what.textContent = text(problems, "hand", { n: entry.number }) + ": ";
      item.appendChild(what);
      item.appendChild(document.createTextNode(entry.reason || ""));
      if (entry.stored) {
        var stored = document.createElement("span");
        stored.className = "stored-hand";
        stored.setAttribute("data-stored-hand", entry.number);
        stored.textContent = " " + entry.stored + " ";
        item.appendChild(stored);
      }
      if (entry.conflict && entry.correct) {
        // The hand is stored, under this entry's key, with other content: what the referee
        // meant goes in as a correction of the stored hand (its own page, a new key).
        var correct = document.createElement("a");
        correct.href = entry.correct;
        correct.className = "button";
        correct.setAttribute("data-sync-correct", entry.key);
        correct.textContent = text(problems, "correct", { n: entry.number });
        item.appendChild(correct);
      }
      [["retry", retry], ["edit", edit], ["discard", discard]].forEach(function (pair) {
        if (pair[0] === "edit" && !form) return;
        // Sent again unchanged or edited, a conflict is refused again (its key saved other
        // content): correct the stored hand, or discard the entry.
        if ((pair[0] === "retry" || pair[0] === "edit") && entry.conflict) return;
        var button = document.createElement("button");
        button.type = "button";
        button.setAttribute("data-sync-" + pair[0], entry.key);
        button.textContent = text(problems, pair[0]);
        button.addEventListener("click", function () { pair[1](entry.key); });
        item.appendChild(button);
      });
      problems.appendChild(item);
    });
    markRows(queue);
  }

  function markRows(queue) {
    document.querySelectorAll("[data-queued-badge]").forEach(function (b) { b.remove(); });
    document.querySelectorAll("tr.queued").forEach(function (r) { r.classList.remove("queued", "refused"); });
    queue.forEach(function (entry) {
      var row = document.getElementById("hand-" + entry.number);
      if (!row || !row.cells[2]) return;
      var badge = document.createElement("span");
      badge.className = "badge " + (entry.state === "refused" ? "error" : "warn");
      badge.setAttribute("data-queued-badge", entry.state);
      badge.textContent = text(problems, "badge-" + entry.state);
      row.classList.add("queued");
      if (entry.state === "refused") row.classList.add("refused");
      row.cells[2].insertBefore(badge, row.cells[2].firstChild);
    });
  }

  // Sending, in order; the first refusal stops the table's later entries until resolved.
  var sending = false;
  var again = false;
  var delay = 0;
  var timer = null;
  function csrf() {
    var field = form && form.querySelector("[name=csrfmiddlewaretoken]");
    return field ? field.value : sync.dataset.csrf;
  }
  function later() {
    clearTimeout(timer);
    delay = Math.min(delay ? delay * 2 : 1000, 10000);
    timer = setTimeout(send, delay);
  }
  function firstReason(errors) {
    var names = Object.keys(errors || {});
    for (var i = 0; i < names.length; i++) {
      if (errors[names[i]] && errors[names[i]].length) return errors[names[i]][0];
    }
    return "";
  }
  // Why an answer that is not the server's verdict on the entry came back: signed out (the
  // login page), no longer allowed at this table, or something else.
  function unreadable(result) {
    if (result.signedOut) return text(problems, "signed-out");
    if (result.status === 403) return text(problems, "forbidden");
    return text(problems, "unreadable", { status: result.status });
  }
  // One entry to the server; a promise of its answer, rejected when it cannot be reached.
  function post(entry) {
    var body = new URLSearchParams();
    entry.fields.forEach(function (pair) {
      if (pair[0] !== "csrfmiddlewaretoken") body.append(pair[0], pair[1]);
    });
    body.append("csrfmiddlewaretoken", csrf());
    // A network that holds the request without an answer (a hall's Wi-Fi gone quiet) counts
    // as unreachable after POST_WAIT: the entry is kept and sent again by its key, which
    // stores it once even if this send did reach the server.
    var stop = window.AbortController ? new AbortController() : null;
    var patience = stop && setTimeout(function () { stop.abort(); }, POST_WAIT);
    return fetch(entry.url, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      signal: stop ? stop.signal : undefined,
      headers: { Accept: "application/json", "X-CSRFToken": csrf() },
    }).then(function (response) {
      var json = (response.headers.get("Content-Type") || "").indexOf("application/json") === 0;
      if (response.status >= 500) throw new Error("server " + response.status);
      var signedOut = response.redirected && response.url.indexOf(sync.dataset.login) !== -1;
      // A success without the server's JSON is an answer cut off on its way (the server
      // stopped while answering): not a verdict, so the entry is sent again, by its key.
      if (!json && !signedOut && response.status < 300) throw new Error("answer cut off");
      return (json ? response.json() : Promise.resolve(null)).then(function (answer) {
        if (answer && answer.saved) delivered(answer.number);
        return { status: response.status, answer: answer, signedOut: signedOut };
      });
    }).then(function (result) {
      clearTimeout(patience);
      return result;
    }, function (failure) {
      clearTimeout(patience);
      throw failure;
    });
  }
  function send() {
    clearTimeout(timer);
    // A nudge (back online, awake) while a send is under way: go again as soon as it ends.
    if (sending) { again = true; return; }
    again = false;
    var queue = load();
    if (!queue.length || queue[0].state === "refused") { render(); return; }
    var entry = queue[0];
    sending = true;
    post(entry).then(function (result) {
      sending = false;
      delay = 0;
      if (result.answer && result.answer.saved) {
        // Out of the queue before the page hears the server is back (offline.js), which
        // sends what waits again.
        remove(entry.key);
        document.dispatchEvent(new CustomEvent("mcr:reached"));
        refreshSoon();
        render();
        send();
        return;
      }
      document.dispatchEvent(new CustomEvent("mcr:reached"));
      var reason = result.answer ? firstReason(result.answer.errors) : unreadable(result);
      // Its key already saved other content: what is stored is shown beside the entry.
      var conflict = result.status === 409 && result.answer;
      if (conflict) reason = text(problems, "conflict");
      update(entry.key, function (e) {
        e.state = "refused";
        e.reason = reason;
        if (conflict) {
          e.conflict = true;
          e.stored = result.answer.stored ? result.answer.stored.text : "";
          e.correct = result.answer.correct || "";
        }
        return e;
      });
      render();
    }).catch(function () {
      // The network (or the server) is away: keep it and try again, a little later each time.
      sending = false;
      document.dispatchEvent(new CustomEvent("mcr:unreachable"));
      render();
      if (again) send();
      else later();
    });
  }

  // The sheet as the server has it now, read from one GET of the page and put in place part
  // by part, each where the page has it: the scores (the sheet and its summary), "Confirm the
  // table" and the session clock (its end moves with extra time). The hand's section is
  // replaced too, by the server's "all hands entered", only when the server has every hand
  // and the tablet keeps none, and only when the form is done with (hidden, or just saved):
  // never under a referee's finger, and once only (the section the server drew stays). A promise of what the server's page said ({complete: every
  // hand entered, next: the hand its form is for}), or of null when it could not be had (the
  // page then stays as it was). Plain fetch, not htmx: what goes in is decided after reading
  // the answer, and a login page or an error must put nothing in place.
  function refreshSheet(formDone) {
    return fetch(location.pathname, { credentials: "same-origin" }).then(function (r) {
      var signedOut = r.redirected && r.url.indexOf(sync.dataset.login) !== -1;
      return r.ok && !signedOut ? r.text() : null;
    }).then(function (html) {
      var page = html && new DOMParser().parseFromString(html, "text/html");
      if (!page || !page.querySelector(".sheet-column")) return null;
      // Every hand entered, or the gong's last hand entered (no new hand is offered).
      var complete = !!page.getElementById("all-entered") || !!page.querySelector("[data-entry-closed]");
      var number = page.querySelector("#hand-entry [name=number]");
      var parts = [".sheet-column", "#confirm", "#session-clock", "#session-end"];
      var entryGoes = complete && !load().length && form && (formDone || form.hidden);
      if (entryGoes) parts.push("#entry");
      parts.forEach(function (css) {
        var fresh = page.querySelector(css), old = document.querySelector(css);
        if (fresh && old) old.replaceWith(document.importNode(fresh, true));
      });
      if (entryGoes) {
        // The form is gone with its header: the sync state goes back to the top of the
        // page, where the server puts it when there is no form.
        form = null;
        sync.insertBefore(stateEl, sync.firstChild);
      }
      render();
      // The wake lock (sheet.js) looks again: a table confirmed meanwhile lets the screen sleep.
      document.dispatchEvent(new CustomEvent("sheet:refreshed"));
      return { complete: complete, next: number ? parseInt(number.value, 10) : null };
    }).catch(function () { return null; });
  }
  // After an entry kept on the tablet reached the server; several in a row refresh once.
  var refreshing = null;
  function refreshSoon() {
    clearTimeout(refreshing);
    refreshing = setTimeout(refreshSheet, 300);
  }

  function retry(key) {
    update(key, function (e) {
      e.state = "pending";
      delete e.reason; delete e.conflict; delete e.stored; delete e.correct;
      return e;
    });
    render();
    send();
  }
  function discard(key) {
    if (!window.confirm(text(problems, "confirm-discard"))) return;
    remove(key);
    render();
    send();
  }

  // The entry form.
  function field(name) { return form.querySelector("[name='" + name + "']"); }
  function setNumber(number) {
    field("number").value = number;
    var hand = schedule && schedule[number];
    var section = form.closest("section") || document;
    var done = section.querySelector("[data-all-entered]");
    if (!hand) {
      form.hidden = true;
      if (!done) {
        done = document.createElement("p");
        done.className = "badge ok";
        done.setAttribute("data-all-entered", "");
        done.textContent = text(problems, "all-entered");
        form.parentNode.insertBefore(done, form);
      }
      return;
    }
    form.hidden = false;
    if (done) done.remove();
    var title = section.querySelector(".hand-header h2");
    if (title) title.textContent = hand.title;
    var winds = section.querySelector(".hand-winds");
    if (winds) winds.textContent = hand.winds;
    // Every seat tile says the seat's wind in this hand: winner, discarder and the penalty
    // rows, the empty row that "Add a penalty row" copies included.
    var seatTiles = "input[name=winner], input[name=discarder], input[name$='-offender'], input[name$='-beneficiary']";
    var empty = form.querySelector("template[data-penalty-empty-row]");
    var tiles = Array.prototype.slice.call(form.querySelectorAll(seatTiles));
    if (empty) tiles = tiles.concat(Array.prototype.slice.call(empty.content.querySelectorAll(seatTiles)));
    tiles.forEach(function (radio) {
      var label = radio.closest("label"), words = hand.seats[parseInt(radio.value, 10)];
      if (!label || words === undefined) return;
      Array.prototype.slice.call(label.childNodes).forEach(function (node) {
        if (node.nodeType === 3) node.remove();
      });
      label.appendChild(document.createTextNode(" " + words));
    });
  }
  var penaltyRows = form && form.querySelector("[data-penalty-rows]");
  var penaltyTotal = form && form.querySelector("input[name$='-TOTAL_FORMS']");
  var addPenalty = form && form.querySelector("[data-add-penalty]");
  // The form for the next hand, as the server draws a new one: no choice made, one empty
  // penalty row (made by "Add a penalty row", sheet.js, so that it is ready for taps), and
  // nothing left of what the server drew beside the last one (a refusal, the fans computed).
  function clearForm(number) {
    form.querySelectorAll("input[type=radio], input[type=checkbox]").forEach(function (i) {
      if (!/^penalty-/.test(i.name)) i.checked = false;
    });
    ["fan", "fan_names", "winning_hand", "version"].forEach(function (name) {
      if (field(name)) field(name).value = "";
    });
    if (field("flowers")) field("flowers").value = "0";
    var details = form.querySelector("details.penalties");
    if (details) details.open = false;
    if (penaltyRows && penaltyTotal && addPenalty) {
      penaltyRows.textContent = "";
      penaltyTotal.value = 0;
      addPenalty.disabled = false;
      addPenalty.click();
    }
    var more = form.querySelector("details.more");
    if (more) more.open = false;
    form.querySelectorAll(".error-summary, .field-errors, .form-errors, .stored-hand, .scored, .claim-check").forEach(function (e) { e.remove(); });
    form.querySelectorAll(".has-error").forEach(function (e) { e.classList.remove("has-error"); });
    field("submission_key").value = newKey();
    setNumber(number);
    if (field("fan")) field("fan").dispatchEvent(new Event("input", { bubbles: true }));
    form.dispatchEvent(new Event("change", { bubbles: true }));
  }
  // The message of a save, in the hand's header as the server's page puts it ("Hand 6
  // saved."), or at the top of the hand's section once it has no form.
  function say(message) {
    var header = document.querySelector(".hand-header") || document.getElementById("entry");
    if (!header) return;
    var box = header.querySelector(".saved");
    if (!box) {
      box = document.createElement("p");
      box.className = "saved";
      box.setAttribute("role", "status");
      if (header.id === "entry") header.insertBefore(box, header.firstChild);
      else header.appendChild(box);
    }
    box.textContent = "";
    var span = document.createElement("span");
    span.className = "message success";
    span.textContent = message;
    box.appendChild(span);
  }
  function lastQueued() {
    return load().reduce(function (most, e) { return Math.max(most, e.number); }, 0);
  }
  function edit(key) {
    var entry = load().filter(function (e) { return e.key === key; })[0];
    if (!entry || !form) return;
    remove(key);
    // The entry goes back into the form as it was typed, its key kept. Saved again unchanged
    // it is "saved" if its first send was stored after all (an answer lost); changed, it is
    // stored if that send was not, and refused as a conflict, with the stored hand shown,
    // if it was: the server compares what each key saved, so no edit is dropped unseen.
    clearForm(entry.number);
    var penaltyCount = 0;
    entry.fields.forEach(function (pair) {
      var name = pair[0], value = pair[1];
      // The page's own seating key: the referee checks the players on this page again.
      // Nor the release it was entered under: this page's is the one the server reads.
      if (name === "csrfmiddlewaretoken" || name === "seating" || name === "release") return;
      if (name === "penalty-TOTAL_FORMS") penaltyCount = parseInt(value, 10) || 0;
      var inputs = form.querySelectorAll("[name='" + name + "']");
      inputs.forEach(function (input) {
        if (input.type === "radio" || input.type === "checkbox") input.checked = input.value === value || (input.type === "checkbox" && value === "on");
        else input.value = value;
      });
    });
    if (penaltyCount && addPenalty && penaltyRows) {
      // Rows the form does not have yet: add them, then fill them.
      while (penaltyRows.querySelectorAll("[data-penalty-row]").length < penaltyCount && !addPenalty.disabled) addPenalty.click();
      entry.fields.forEach(function (pair) {
        if (!/^penalty-\d/.test(pair[0])) return;
        form.querySelectorAll("[name='" + pair[0] + "']").forEach(function (input) {
          if (input.type === "radio" || input.type === "checkbox") input.checked = input.value === pair[1];
          else input.value = pair[1];
        });
      });
      var details = form.querySelector("details.penalties");
      if (details) details.open = true;
    }
    form.dispatchEvent(new Event("change", { bubbles: true }));
    render();
    form.scrollIntoView({ block: "start" });
    send();
  }

  if (form) {
    form.addEventListener("submit", function (event) {
      var button = event.submitter;
      // Only "Save hand" and "Save as a draw" save in the background; "Compute" and the
      // rest post as before.
      var draw = button && button.hasAttribute("data-save-draw");
      if (!button || !(draw || button.classList.contains("primary"))) return;
      event.preventDefault();
      // The draw button carries the result: the result's own tile says it from here on, so
      // that the kept entry (and a plain post of the form) holds it.
      if (draw) form.querySelector("input[name=outcome][value='" + button.value + "']").checked = true;
      var fields = [];
      new FormData(form).forEach(function (value, name) {
        if (typeof value === "string") fields.push([name, value]);
      });
      var number = parseInt(field("number").value, 10);
      var entry = { key: field("submission_key").value, number: number, url: form.action, fields: fields, state: "pending" };
      if (load().length) { keep(entry); return; }
      // A second tap while the first is on its way: the first one's answer decides.
      if (saving) return;
      saving = true;
      // Nothing waiting: try the server now. Saved, the page moves to the next hand in place;
      // refused on its merits, the form is posted plainly so that the server's page shows
      // why beside the fields; turned away (signed out, the table given to someone else, the
      // tablet's link revoked), it is kept as refused, for the referee to send again once put
      // right; unreachable, it is kept to be sent.
      post(entry).then(function (result) {
        if (result.answer && result.answer.saved) return saved(result.answer.number);
        saving = false;
        if (result.answer) {
          form.submit();
        } else {
          entry.state = "refused";
          entry.reason = unreadable(result);
          keep(entry);
        }
      }).catch(function () { saving = false; keep(entry); });
    });
    var saving = false;
    // Saved at once: the page shows what a load of the sheet would, without one. The scores,
    // "Confirm the table" and the clock come from the server's page; the form is readied for
    // the server's next hand (or, with every hand entered, the server's "all entered" takes
    // its place); "Hand N saved." is said in the header's status line, as the page says it
    // after a plain post. The focus goes to the next hand's heading, as a load at #entry
    // left the reader: a screen reader reads which hand is next, the next Tab reaches its
    // first choice, and no tile is focused that the referee has not chosen.
    function saved(number) {
      return refreshSheet(true).then(function (answer) {
        saving = false;
        if (form) clearForm(answer && answer.next ? answer.next : number + 1);
        say(text(problems, "saved", { n: number }));
        render();
        var section = document.getElementById("entry");
        var target = form && !form.hidden ? section.querySelector("h2") : document.getElementById("all-entered") || document.getElementById("gong-over");
        if (section) section.scrollIntoView({ block: "start" });
        if (target) target.focus({ preventScroll: true });
      });
    }
    function keep(entry) {
      var queue = load();
      queue.push(entry);
      store(queue);
      say(text(problems, "kept", { n: entry.number }));
      clearForm(Math.max(entry.number, lastQueued()) + 1);
      window.scrollTo(0, 0);
      render();
      delay = 0;
      send();
    }
    // A hand kept on the tablet is not on the server yet: the next form follows it, as it
    // follows those delivered since a copy of the page shown from the device was kept.
    var shown = parseInt(field("number").value, 10) || 0;
    var fromDevice = document.querySelector("[data-offline-line][data-page-source=device]");
    var last = Math.max(lastQueued(), fromDevice ? lastDelivered() : 0);
    if (last >= shown) clearForm(last + 1);
  }

  function now() { delay = 0; send(); }
  window.addEventListener("online", now);
  // The server answers again (offline.js): what waits is sent, and the sheet shows what the
  // server has, a page shown from the device included.
  document.addEventListener("mcr:back-online", function () { now(); refreshSheet(); });
  window.addEventListener("pageshow", function () { render(); now(); });
  document.addEventListener("visibilitychange", function () {
    // Awake again: the sheet as the server has it now (other tablets' hands, extra time, the
    // table confirmed meanwhile).
    if (document.visibilityState === "visible") { render(); now(); refreshSoon(); }
  });
  window.addEventListener("storage", function (event) { if (event.key === storeKey) render(); });
  render();
  now();
})();
