// The tile picker (templates/scoring/_tile_picker.html), on the calculator and the referee's
// sheet. Taps build the winning hand in groups (a tile, a pair, a chow, a pung, a kong, each
// concealed or claimed) and the hand is written, in the notation, into the form's field: that
// field is what is posted and saved, so the picker adds nothing the server does not check.
// The fans are counted by the server (/calculator/fans/), never here; what this script knows
// of the rules is only what a set of tiles can hold (four copies, fourteen tiles, a chow's
// run), to refuse a tap at once. Without a network the tiles are still taken: the fans are
// then checked when the hand is sent.
(function () {
  var ORDER = [];
  ["m", "p", "s"].forEach(function (suit) {
    for (var rank = 1; rank <= 9; rank++) ORDER.push(rank + suit);
  });
  ORDER = ORDER.concat(["E", "S", "W", "N", "C", "F", "P"]);
  var HONORS_BY_NUMBER = "ESWNCFP";
  var HAND_SIZE = 14, COPIES = 4, MAX_FLOWERS = 8;
  var SIZES = { tile: 1, pair: 2, chow: 3, pung: 3, kong: 4 };

  var say = window.mcr.text;
  function tilesOf(kind, code) {
    if (kind === "chow") {
      var rank = parseInt(code, 10), suit = code.slice(-1);
      return [rank + suit, rank + 1 + suit, rank + 2 + suit];
    }
    var tiles = [];
    for (var i = 0; i < SIZES[kind]; i++) tiles.push(code);
    return tiles;
  }
  // Tiles written as the notation writes them: sorted, the digits of one suit sharing its letter.
  function written(tiles) {
    var sorted = tiles.slice().sort(function (a, b) { return ORDER.indexOf(a) - ORDER.indexOf(b); });
    var out = "", run = "", suit = "";
    sorted.forEach(function (tile) {
      if (tile.length === 2) {
        if (suit && tile[1] !== suit) { out += run + suit; run = ""; }
        suit = tile[1];
        run += tile[0];
      } else {
        if (suit) { out += run + suit; run = ""; suit = ""; }
        out += tile;
      }
    });
    return out + (suit ? run + suit : "");
  }
  // The tiles of a run of notation ("123m", "EE", "11z"), or null when it is not one.
  function readTiles(text) {
    var tiles = [], pattern = /(\d+)([mpsz])|([ESWNCFP])|(\s+)/g, at = 0, match;
    while ((match = pattern.exec(text)) && match.index === at) {
      at = pattern.lastIndex;
      if (match[1]) {
        for (var i = 0; i < match[1].length; i++) {
          var digit = parseInt(match[1][i], 10);
          if (match[2] === "z") {
            if (digit < 1 || digit > 7) return null;
            tiles.push(HONORS_BY_NUMBER[digit - 1]);
          } else {
            if (digit < 1) return null;
            tiles.push(digit + match[2]);
          }
        }
      } else if (match[3]) tiles.push(match[3]);
    }
    return at === text.length ? tiles : null;
  }

  document.querySelectorAll("[data-tile-picker]").forEach(function (root) {
    var form = root.closest("form");
    var field = form && form.querySelector("[name='" + root.dataset.target + "']");
    if (!field) return;
    var onSheet = root.hasAttribute("data-on-sheet");
    var names = JSON.parse(document.getElementById("tile-names").textContent);
    var handBox = root.querySelector("[data-picker-hand]");
    var countBox = root.querySelector("[data-picker-count]");
    var refusal = root.querySelector("[data-picker-refusal]");
    var fansBox = root.querySelector("[data-picker-fans]");
    var useTotal = root.querySelector("[data-use-total]");
    var exposedButton = root.querySelector("[data-exposed]");
    var fanField = form.querySelector("input[name=fan]");
    var flowersField = form.querySelector("input[name=flowers]");

    var state = { groups: [], win: null, mode: "tile", exposed: false, flags: {}, seat: "E", wind: "E", flowers: 0 };
    var answers = {}, asked = 0, lastTap = 0;
    root.hidden = false;

    function size(group) { return group.kind === "kong" ? 3 : group.tiles.length; }
    function count() { return state.groups.reduce(function (n, g) { return n + size(g); }, 0); }
    function copies(tile) {
      return state.groups.reduce(function (n, g) {
        return n + g.tiles.filter(function (t) { return t === tile; }).length;
      }, 0);
    }
    function inHand(group) { return !group.exposed && group.kind !== "kong"; }
    // The winning tile: the one tapped as such; else, when the last group in the hand is a
    // tile, a pair or a pung, that tile (any copy is the same). A chow's winning tile is never
    // guessed: which of its three it is changes the fans (the waits), so it is tapped.
    function lastInHand() {
      for (var g = state.groups.length - 1; g >= 0; g--) if (inHand(state.groups[g])) return g;
      return -1;
    }
    function winAt() {
      if (state.win && state.groups[state.win.group] && inHand(state.groups[state.win.group])) return state.win;
      var g = lastInHand();
      if (g < 0 || state.groups[g].kind === "chow") return null;
      return { group: g, tile: state.groups[g].tiles.length - 1 };
    }
    function selfDrawn() {
      if (!onSheet) return !!state.flags.self;
      var outcome = form.querySelector("input[name=outcome]:checked");
      return !!outcome && outcome.value === "self_drawn";
    }
    function notation() {
      if (!state.groups.length) return "";
      var win = winAt(), concealed = [], melds = [];
      state.groups.forEach(function (group, g) {
        if (group.exposed) melds.push("[" + written(group.tiles) + "]");
        else if (group.kind === "kong") melds.push("{" + written(group.tiles) + "}");
        else group.tiles.forEach(function (tile, t) {
          if (!win || win.group !== g || win.tile !== t) concealed.push(tile);
        });
      });
      var text = [written(concealed)].concat(melds).filter(Boolean).join(" ");
      if (win) text += " +" + state.groups[win.group].tiles[win.tile];
      var words = ["kong", "fourth", "last", "heavenly", "earthly", "human"].filter(function (f) { return state.flags[f]; });
      if (!onSheet) {
        if (state.flags.self) words.unshift("self");
        words.push("seat=" + state.seat, "wind=" + state.wind, "flowers=" + state.flowers);
      }
      return text + (words.length ? " | " + words.join(" ") : "");
    }
    function complete() { return count() === HAND_SIZE && winAt() !== null; }

    function refuse(message) {
      refusal.textContent = message;
      root.classList.add("refused");
    }
    function add(code) {
      if (state.unreadable) return refuse(say(root, "unreadable"));
      var kind = state.mode;
      if (kind === "chow" && (code.length !== 2 || parseInt(code, 10) > 7)) return refuse(say(root, "no-chow"));
      var tiles = tilesOf(kind, code);
      var over = tiles.filter(function (tile) {
        return copies(tile) + tiles.filter(function (t) { return t === tile; }).length > COPIES;
      })[0];
      if (over) return refuse(say(root, "fifth", { tile: names[over] }));
      var exposed = state.exposed && (kind === "chow" || kind === "pung" || kind === "kong");
      if (count() + (kind === "kong" ? 3 : tiles.length) > HAND_SIZE) return refuse(say(root, "full"));
      state.groups.push({ kind: kind, tiles: tiles, exposed: exposed });
      changed();
    }
    function markWin(group, tile) {
      if (state.unreadable) return refuse(say(root, "unreadable"));
      if (!inHand(state.groups[group])) return refuse(say(root, "win-concealed"));
      state.win = { group: group, tile: tile };
      changed();
    }

    function render() {
      var win = winAt();
      handBox.textContent = "";
      state.groups.forEach(function (group, g) {
        var box = document.createElement("span");
        box.className = "picker-group " + group.kind + (group.exposed ? " exposed" : "") + (group.kind === "kong" && !group.exposed ? " concealed-kong" : "");
        if (group.exposed || group.kind === "kong") {
          var kindWords = group.exposed ? say(root, "claimed") : say(root, "concealed-kong");
          var label = document.createElement("span");
          label.className = "visually-hidden";
          label.textContent = kindWords;
          box.title = kindWords;
          box.appendChild(label);
        }
        group.tiles.forEach(function (tile, t) {
          var face = root.querySelector("[data-tile='" + tile + "']");
          var chip = document.createElement("button");
          chip.type = "button";
          chip.className = "hand-tile " + (face ? face.className.replace(/\btile\b/, "") : "");
          chip.innerHTML = face ? face.innerHTML : tile;
          var isWin = win && win.group === g && win.tile === t;
          if (isWin) chip.classList.add("win");
          chip.setAttribute("aria-label", names[tile] + (isWin ? " (" + say(root, "win") + ")" : ""));
          chip.setAttribute("data-face", tile);
          chip.setAttribute("data-group", g);
          chip.setAttribute("data-index", t);
          box.appendChild(chip);
        });
        handBox.appendChild(box);
      });
      var counted = say(root, "count", { count: count() });
      if (win) counted += " · " + say(root, "win") + ": " + names[state.groups[win.group].tiles[win.tile]];
      countBox.textContent = counted;
      root.querySelectorAll("[data-mode]").forEach(function (b) {
        b.setAttribute("aria-pressed", b.dataset.mode === state.mode ? "true" : "false");
      });
      exposedButton.setAttribute("aria-pressed", state.exposed ? "true" : "false");
      var self = selfDrawn();
      root.querySelectorAll("[data-flag]").forEach(function (b) {
        b.setAttribute("aria-pressed", state.flags[b.dataset.flag] ? "true" : "false");
        if (b.dataset.when) b.hidden = (b.dataset.when === "self") !== self;
      });
      root.querySelectorAll("[data-seat]").forEach(function (b) { b.setAttribute("aria-pressed", b.dataset.seat === state.seat ? "true" : "false"); });
      root.querySelectorAll("[data-wind]").forEach(function (b) { b.setAttribute("aria-pressed", b.dataset.wind === state.wind ? "true" : "false"); });
      root.querySelectorAll("[data-flower]").forEach(function (b) {
        b.setAttribute("aria-pressed", parseInt(b.dataset.flower, 10) <= state.flowers ? "true" : "false");
      });
    }
    // After every tap: the field holds the hand, and the fans are asked for once it is whole.
    function changed() {
      refusal.textContent = "";
      root.classList.remove("refused");
      if (!state.unreadable) field.value = notation();
      render();
      fans();
    }

    // The rules the fans are counted under: the tournament's on a sheet (the page says them),
    // the options chosen in the calculator's form.
    var ruleFields = ["kong", "no_flowers", "blessings", "minimum"];
    function sheetParams() {
      var params = { hand: field.value };
      new URLSearchParams(root.dataset.rules || "").forEach(function (value, name) { params[name] = value; });
      if (!onSheet) {
        ruleFields.forEach(function (name) {
          var input = form.querySelector("[name=" + name + "]");
          if (!input) return;
          if (input.type === "checkbox") { if (input.checked) params[name] = "on"; else delete params[name]; }
          else if (input.value) params[name] = input.value;
        });
        return params;
      }
      var winner = form.querySelector("input[name=winner]:checked");
      var outcome = form.querySelector("input[name=outcome]:checked");
      params.number = form.querySelector("[name=number]").value;
      params.winner = winner ? winner.value : "";
      params.outcome = outcome ? outcome.value : "";
      params.flowers = flowersField ? flowersField.value : "0";
      return params;
    }
    // The answer shown, and for which hand (what the tests and the benchmark wait for).
    function showFans(html, hand) {
      fansBox.innerHTML = html;
      root.dataset.fansHand = hand;
      var answer = fansBox.querySelector("[data-fans]");
      var total = answer && answer.dataset.total;
      root.dataset.fansTotal = total || "";
      if (lastTap) root.dataset.fansShownAfter = (performance.now() - lastTap).toFixed(1);
      if (useTotal) {
        useTotal.hidden = !total;
        if (total) useTotal.textContent = say(useTotal, "use", { total: total });
      }
      root.dispatchEvent(new CustomEvent("picker:fans", { bubbles: true, detail: { total: total } }));
    }
    function fans() {
      // Each call makes any answer still on its way out of date.
      var mine = ++asked;
      if (!complete()) {
        var full = count() === HAND_SIZE;
        fansBox.textContent = !state.groups.length ? "" : !full ? say(root, "waiting")
          : lastInHand() < 0 ? say(root, "no-win") : say(root, "pick-win");
        delete root.dataset.fansTotal;
        delete root.dataset.fansHand;
        if (useTotal) useTotal.hidden = true;
        root.dispatchEvent(new CustomEvent("picker:fans", { bubbles: true, detail: { total: null } }));
        return;
      }
      var query = new URLSearchParams(sheetParams()).toString();
      var hand = field.value;
      if (answers[query]) return showFans(answers[query], hand);
      // Until the answer comes, no total is offered: the one shown was for another hand.
      fansBox.textContent = say(root, "checking");
      delete root.dataset.fansTotal;
      delete root.dataset.fansHand;
      if (useTotal) useTotal.hidden = true;
      root.dispatchEvent(new CustomEvent("picker:fans", { bubbles: true, detail: { total: null, checking: true } }));
      fetch(root.dataset.fansUrl + "?" + query, { credentials: "same-origin" }).then(function (response) {
        if (!response.ok) throw { status: response.status };
        return response.text();
      }).then(function (html) {
        answers[query] = html;
        if (mine === asked) showFans(html, hand);
      }).catch(function (failure) {
        if (mine !== asked) return;
        var status = failure && failure.status;
        fansBox.innerHTML = "";
        var badge = document.createElement("p");
        badge.className = "badge warn";
        badge.setAttribute("data-fans-offline", "");
        badge.textContent = status ? say(root, "failed", { status: status }) : say(root, "offline");
        fansBox.appendChild(badge);
        root.dataset.fansTotal = "";
        root.dataset.fansHand = hand;
        if (useTotal) useTotal.hidden = true;
        root.dispatchEvent(new CustomEvent("picker:fans", { bubbles: true, detail: { total: null, offline: true } }));
      });
    }
    // Back online (offline.js says so, or the browser): fans that could not be counted are.
    function recount() { if (fansBox.querySelector("[data-fans-offline]")) fans(); }
    document.addEventListener("mcr:back-online", recount);
    window.addEventListener("online", recount);

    // The field's hand back into the picker: on load (a refused hand shown again), and when
    // the sheet fills or clears the form (tablet.js). Each concealed tile becomes a group of
    // its own. A text the picker cannot read whole (typed under More) is left as it is: the
    // picker then refuses taps, and says so, until Clear.
    function readHand(text) {
      var groups = [], win = null, token, pattern = /\s*(?:\[([^\]]*)\]|\{([^}]*)\}|\+\s*([^\s[\]{}+]+)|([^[\]{}+]+))/y;
      while (pattern.lastIndex < text.length) {
        var at = pattern.lastIndex;
        token = pattern.exec(text);
        if (!token) return null;
        if (/^\s*$/.test(text.slice(at, pattern.lastIndex))) continue;
        if (win) return null;  // nothing after the winning tile
        var inner = token[1] !== undefined ? token[1] : token[2];
        if (inner !== undefined) {
          var tiles = readTiles(inner.replace(/:\d\s*$/, "").trim());
          if (!tiles) return null;
          var same = tiles.every(function (t) { return t === tiles[0]; });
          var run = tiles.length === 3 && tiles[0].length === 2 && tiles[1] === (parseInt(tiles[0], 10) + 1) + tiles[0][1]
            && tiles[2] === (parseInt(tiles[0], 10) + 2) + tiles[0][1];
          var claimed = token[1] !== undefined;
          if (!(tiles.length === 4 && same) && !(claimed && tiles.length === 3 && (same || run))) return null;
          groups.push({ kind: tiles.length === 4 ? "kong" : same ? "pung" : "chow", tiles: tiles, exposed: claimed });
        } else if (token[3] !== undefined) {
          win = readTiles(token[3]);
          if (!win || win.length !== 1) return null;
        } else {
          var loose = readTiles(token[4].trim());
          if (!loose) return null;
          loose.forEach(function (tile) { groups.push({ kind: "tile", tiles: [tile], exposed: false }); });
        }
      }
      if (win) groups.push({ kind: "tile", tiles: win, exposed: false });
      return { groups: groups, win: win ? { group: groups.length - 1, tile: 0 } : null };
    }
    function readField() {
      var text = field.value.trim(), conditions = "";
      if (text.indexOf("|") >= 0) { conditions = text.slice(text.indexOf("|") + 1); text = text.slice(0, text.indexOf("|")); }
      var read = readHand(text.trim());
      state.groups = read ? read.groups : [];
      state.win = read ? read.win : null;
      state.unreadable = !read;
      state.flags = {};
      state.mode = "tile";
      state.exposed = false;
      conditions.toLowerCase().split(/[\s,]+/).forEach(function (word) {
        var pair = word.split("=");
        if (pair.length === 1 && word) state.flags[word] = true;
        else if (pair[0] === "seat") state.seat = pair[1].toUpperCase();
        else if (pair[0] === "wind") state.wind = pair[1].toUpperCase();
        else if (pair[0] === "flowers") state.flowers = parseInt(pair[1], 10) || 0;
      });
      if (onSheet && flowersField) state.flowers = parseInt(flowersField.value, 10) || 0;
      refusal.textContent = state.unreadable ? say(root, "unreadable") : "";
      render();
      fans();
    }

    root.addEventListener("click", function (event) {
      var button = event.target.closest("button");
      if (!button || !root.contains(button)) return;
      lastTap = performance.now();
      var data = button.dataset;
      if (data.tile) add(data.tile);
      else if (button.classList.contains("hand-tile")) markWin(parseInt(data.group, 10), parseInt(data.index, 10));
      else if (data.mode) { state.mode = data.mode; render(); }
      else if (button.hasAttribute("data-exposed")) { state.exposed = !state.exposed; render(); }
      else if (state.unreadable && (data.flag || data.seat || data.wind || button.hasAttribute("data-undo"))) refuse(say(root, "unreadable"));
      else if (data.flag) {
        var on = !state.flags[data.flag];
        // A hand has one blessing at most: tapping one takes the others off.
        if (button.hasAttribute("data-blessing")) ["heavenly", "earthly", "human"].forEach(function (f) { state.flags[f] = false; });
        state.flags[data.flag] = on;
        changed();
      }
      else if (data.seat) { state.seat = data.seat; changed(); }
      else if (data.wind) { state.wind = data.wind; changed(); }
      else if (data.flower) {
        // The flowers are counted, not named: a tap on the n-th sets n, on the last set one fewer.
        var n = parseInt(data.flower, 10);
        state.flowers = state.flowers === n ? n - 1 : n;
        if (flowersField) {
          flowersField.value = state.flowers;
          flowersField.dispatchEvent(new Event("input", { bubbles: true }));
        }
        changed();
      } else if (button.hasAttribute("data-undo")) {
        if (state.win && state.win.group === state.groups.length - 1) state.win = null;
        state.groups.pop();
        changed();
      } else if (button.hasAttribute("data-clear")) {
        state.groups = []; state.win = null; state.flags = {}; state.unreadable = false;
        changed();
      }
    });
    // What the sheet knows changed (the result, the winner, the flowers; a discarder tapped
    // makes the result a win on a discard): the fans again. Only these ask again (a fan typed
    // does not: the page would move under the referee's finger on its way to Save).
    var COUNTED_FROM = ["outcome", "winner", "discarder", "flowers"];
    form.addEventListener("change", function (event) {
      if (event.target === form) { readField(); return; }
      if (root.contains(event.target) || event.target === field) return;
      if (COUNTED_FROM.indexOf(event.target.name) < 0) return;
      if (flowersField && event.target === flowersField) state.flowers = Math.min(MAX_FLOWERS, parseInt(flowersField.value, 10) || 0);
      render();
      if (state.groups.length) fans();
    });
    if (flowersField) flowersField.addEventListener("input", function () {
      var value = Math.min(MAX_FLOWERS, parseInt(flowersField.value, 10) || 0);
      if (value !== state.flowers) { state.flowers = value; render(); if (state.groups.length) fans(); }
    });
    field.addEventListener("change", readField);
    // Back on the network: the fans of a whole hand are counted now.
    window.addEventListener("online", function () { if (complete()) fans(); });
    root.picker = { readField: readField, notation: notation };
    readField();
  });
})();
