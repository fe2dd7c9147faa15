// The referee's sheet, beside tablet.js (which saves in the background): taps instead of typing
// for the fan, the flowers and the penalties, the fields that apply to the result chosen,
// the session clock and the screen kept on. Without JavaScript the page's plain fields and
// buttons do the same (the screen then sleeps as the tablet is set to). helpers.js before it.
// Fan quick picks and the flower stepper.
(function () {
  var form = document.getElementById("hand-entry");
  if (!form) return;
  var fan = form.querySelector("input[name=fan]");
  var picks = form.querySelector("[data-quick-picks]");
  if (fan && picks) {
    picks.hidden = false;
    var mark = function () {
      picks.querySelectorAll("[data-fan]").forEach(function (b) {
        b.setAttribute("aria-pressed", b.dataset.fan === fan.value ? "true" : "false");
      });
    };
    picks.addEventListener("click", function (event) {
      var button = event.target.closest("button");
      if (!button) return;
      if (button.hasAttribute("data-fan-other")) { fan.focus(); fan.select(); return; }
      fan.value = button.dataset.fan;
      mark();
    });
    fan.addEventListener("input", mark);
    mark();
  }
  var flowers = form.querySelector("input[name=flowers]");
  var stepper = form.querySelector("[data-flower-stepper]");
  if (flowers && stepper) {
    stepper.hidden = false;
    stepper.addEventListener("click", function (event) {
      var button = event.target.closest("button");
      if (!button) return;
      var value = (parseInt(flowers.value, 10) || 0) + parseInt(button.dataset.step, 10);
      var most = parseInt(flowers.getAttribute("max"), 10);
      flowers.value = Math.max(0, isNaN(most) ? value : Math.min(most, value));
      flowers.dispatchEvent(new Event("input", { bubbles: true }));
    });
  }
})();
// Show only the fields that apply to the chosen result; the server checks everything anyway.
// The winner and discarder tiles are always there, so that one tap turns a draw into a win:
// a winner tapped on a draw takes the draw back (the form is then as for a new hand, the
// fan and the discarder shown), a discarder tapped means a win on that discard. Tapping a
// draw or "not played" clears them.
(function () {
  var form = document.querySelector(".hand-form");
  if (!form) return;
  function outcome() {
    var checked = form.querySelector("input[name=outcome]:checked");
    return checked ? checked.value : "";
  }
  function choose(value) {
    var radio = form.querySelector("input[name=outcome][value=" + value + "]");
    if (radio && !radio.checked) radio.checked = true;
  }
  function update() {
    var value = outcome();
    var win = !value || value === "self_drawn" || value === "discard";
    form.querySelectorAll(".win-only").forEach(function (el) { el.hidden = !win; });
    form.querySelectorAll(".discard-only").forEach(function (el) { el.hidden = value === "self_drawn"; });
  }
  form.addEventListener("change", function (event) {
    var name = event.target.name, value = outcome();
    var win = value === "self_drawn" || value === "discard";
    if (name === "discarder") choose("discard");
    else if (name === "winner" && value && !win) {
      form.querySelectorAll("input[name=outcome]").forEach(function (radio) { radio.checked = false; });
    }
    else if (name === "outcome" && !win) {
      form.querySelectorAll("input[name=winner], input[name=discarder]").forEach(function (radio) { radio.checked = false; });
    }
    update();
  });
  update();
})();
// The session clock counts down on the tablet without asking the server, so it keeps time
// offline (helpers.js: mcr.countdown). Extra time given meanwhile arrives with the sheet's
// next refresh (tablet.js swaps the clock in), and a clock that said "Time is up" counts again.
if (document.getElementById("session-clock")) window.mcr.countdown("#session-clock");

// The screen stays on while the table is in play: the Screen Wake Lock, asked for while the
// page has its line [data-wake-lock] (drawn while hands can be entered, gone once the table
// is confirmed), asked again when the page is shown again (the browser lets go of it when
// the page is hidden), let go once a refresh of the sheet (tablet.js, "sheet:refreshed")
// finds the table confirmed. The line says which (its data-wake-lock: requested, held,
// refused or unsupported).
(function () {
  var lock = null;
  var asking = false;
  function line() { return document.querySelector("[data-wake-lock]"); }
  function show(state) {
    var el = line();
    if (!el) return;
    el.setAttribute("data-wake-lock", state);
    el.textContent = window.mcr.text(el, state === "requested" ? "held" : state);
    el.hidden = false;
  }
  function letGo() {
    var held = lock;
    lock = null;
    if (held && !held.released) held.release().catch(function () {});
  }
  function ask() {
    if (!line()) { if (lock) letGo(); return; }
    if (!navigator.wakeLock) { show("unsupported"); return; }
    // A line swapped in by a refresh says what the lock already is.
    if (lock && !lock.released) { show("held"); return; }
    if (asking || document.visibilityState !== "visible") return;
    asking = true;
    show("requested");
    navigator.wakeLock.request("screen").then(function (sentinel) {
      asking = false;
      lock = sentinel;
      // Confirmed while the lock was asked for: let it go at once.
      if (!line()) { letGo(); return; }
      show("held");
    }).catch(function () {
      asking = false;
      show("refused");
    });
  }
  document.addEventListener("visibilitychange", ask);
  document.addEventListener("sheet:refreshed", ask);
  ask();
})();

// Penalties: "Add a penalty row" copies the page's empty row here instead of asking the server
// (without JavaScript the button posts and the server adds the row), and a preset fills its
// row's kind, points and reason in one tap. The server still checks every row.
(function () {
  var block = document.querySelector("#hand-entry details.penalties");
  if (!block) return;
  var rows = block.querySelector("[data-penalty-rows]");
  var empty = block.querySelector("template[data-penalty-empty-row]");
  var total = block.querySelector("input[name$='-TOTAL_FORMS']");
  var most = parseInt(block.querySelector("input[name$='-MAX_NUM_FORMS']").value, 10);
  var add = block.querySelector("[data-add-penalty]");
  if (!rows || !empty || !total || !add) return;
  function field(row, name) { return row.querySelector("[name$='-" + name + "']"); }
  function rowOf(element) { return element.closest("[data-penalty-row]"); }
  function count() { return rows.querySelectorAll("[data-penalty-row]").length; }
  // Only a penalty paid to one player says who is paid; an error there stays in sight.
  function showBeneficiary(row) {
    var box = row.querySelector("[data-beneficiary]");
    box.hidden = field(row, "kind").value !== "to_one" && !box.classList.contains("has-error");
    if (box.hidden) stopAsking(row);
  }
  function stopAsking(row) {
    row.querySelector("[data-beneficiary]").classList.remove("asking");
    row.querySelector("[data-beneficiary-ask]").hidden = true;
  }
  function forgetPreset(row) {
    row.querySelectorAll("[data-preset-kind]").forEach(function (b) { b.setAttribute("aria-pressed", "false"); });
    row.querySelector("[data-points-range]").textContent = "";
  }
  function enhance(row) {
    row.querySelector("[data-penalty-presets]").hidden = false;
    row.querySelectorAll("[data-preset-kind]").forEach(function (b) { b.setAttribute("aria-pressed", "false"); });
    showBeneficiary(row);
  }
  function applyPreset(row, button) {
    var preset = button.dataset;
    field(row, "kind").value = preset.presetKind;
    field(row, "points").value = preset.presetPoints;
    field(row, "reason").value = preset.presetReason;
    forgetPreset(row);
    button.setAttribute("aria-pressed", "true");
    row.querySelector("[data-points-range]").textContent = preset.presetRange || "";
    var box = row.querySelector("[data-beneficiary]");
    var chosen = box.querySelector("input:checked");
    if (preset.presetKind !== "to_one") {
      box.querySelector("input[value='']").checked = true;
    } else if (!chosen || chosen.value === "") {
      // Paid to one player: the preset cannot know whom, so the row asks.
      box.classList.add("asking");
      row.querySelector("[data-beneficiary-ask]").hidden = false;
    }
    showBeneficiary(row);
    if (box.classList.contains("asking")) box.scrollIntoView({ block: "nearest" });
  }
  // A page brought back by the browser may keep an older count: the rows shown decide.
  total.value = count();
  add.disabled = count() >= most;
  rows.querySelectorAll("[data-penalty-row]").forEach(enhance);
  add.addEventListener("click", function (event) {
    event.preventDefault();
    var index = count();
    if (index >= most) return;
    var holder = document.createElement("div");
    holder.innerHTML = empty.innerHTML.replace(/__prefix__/g, index).replace(/__number__/g, index + 1);
    var row = holder.querySelector("[data-penalty-row]");
    rows.appendChild(row);
    total.value = index + 1;
    add.disabled = index + 1 >= most;
    enhance(row);
    row.scrollIntoView({ block: "nearest" });
  });
  rows.addEventListener("click", function (event) {
    var button = event.target.closest("[data-preset-kind]");
    if (button) applyPreset(rowOf(button), button);
  });
  rows.addEventListener("change", function (event) {
    var row = rowOf(event.target);
    if (!row) return;
    if (event.target === field(row, "kind")) { forgetPreset(row); showBeneficiary(row); }
    if (event.target.name && /-beneficiary$/.test(event.target.name)) stopAsking(row);
  });
  rows.addEventListener("input", function (event) {
    var row = rowOf(event.target);
    if (row && event.target === field(row, "reason")) forgetPreset(row);
  });
})();

// The tile picker on the sheet: "Enter the tiles" opens it over the whole screen; its fans
// (counted by the server) fill the fan with one tap, and a fan the players declared that the
// tiles do not give is said under the fan before Save. The server checks it again on Save.
(function () {
  var form = document.getElementById("hand-entry");
  var dialog = form && form.querySelector("[data-picker-dialog]");
  var row = form && form.querySelector("[data-picker-open-row]");
  var fan = form && form.querySelector("input[name=fan]");
  if (!dialog || !row || !fan || typeof dialog.showModal !== "function") return;
  var picker = dialog.querySelector("[data-tile-picker]");
  var summary = row.querySelector("[data-picker-summary]");
  var use = row.querySelector("[data-picker-use]");
  var counted = { total: null, offline: false };
  row.hidden = false;
  function words(name, values) { return window.mcr.text(summary, name, values); }
  function update() {
    var total = counted.total, declared = fan.value.trim();
    summary.classList.remove("differs");
    use.hidden = !total || declared === total;
    if (total) use.textContent = window.mcr.text(use, "use", { total: total });
    if (counted.offline) summary.textContent = words("offline", {});
    else if (!total) summary.textContent = "";
    else if (!declared) summary.textContent = words("counted", { total: total });
    else if (declared === total) summary.textContent = words("agrees", { total: total });
    else {
      summary.textContent = words("differs", { declared: declared, total: total });
      summary.classList.add("differs");
    }
  }
  function take() {
    fan.value = counted.total;
    fan.dispatchEvent(new Event("input", { bubbles: true }));
    if (dialog.open) dialog.close();
    update();
  }
  row.querySelector("[data-picker-open]").addEventListener("click", function () { dialog.showModal(); });
  picker.querySelector("[data-picker-close]").addEventListener("click", function () { dialog.close(); });
  picker.querySelector("[data-use-total]").addEventListener("click", take);
  use.addEventListener("click", take);
  form.addEventListener("picker:fans", function (event) {
    counted = { total: event.detail.total || null, offline: !!event.detail.offline };
    // While the fans are counted again, the line keeps its words (the page does not move)
    // but offers no total.
    if (event.detail.checking) { use.hidden = true; return; }
    update();
  });
  fan.addEventListener("input", update);
})();
