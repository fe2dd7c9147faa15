// Every page's small behaviours, kept out of the pages so that the Content-Security-Policy
// allows no inline script: a button marked data-print prints the page, a form marked
// data-confirm asks its question before it is sent (without JavaScript it is sent at once),
// a box marked data-fit (a badge's text) makes its type smaller until it fits, and a time
// zone list marked data-browser-time-zone (a new tournament's) starts on the zone the
// organiser's browser is in, when the list has it (otherwise the site's stays).
(function () {
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-print]");
    if (button) window.print();
  });
  document.addEventListener("submit", function (event) {
    var question = event.target.getAttribute("data-confirm");
    if (question && !window.confirm(question)) event.preventDefault();
  });
  // A box of fixed size, its text sized in em: a long name is made smaller, a twentieth at
  // a time, down to half its size, rather than cut by the box's edge; its words are kept
  // whole while it shrinks, and broken (as the style sheet may say) only if it still does
  // not fit. Both measures are whole pixels, the box's rounded down and its content's up:
  // a pixel more is no overflow.
  function overflows(box) {
    return box.scrollHeight > box.clientHeight + 1 || box.scrollWidth > box.clientWidth + 1;
  }
  document.querySelectorAll("[data-fit]").forEach(function (box) {
    var size = parseFloat(window.getComputedStyle(box).fontSize);
    box.style.overflowWrap = "normal";
    for (var twentieths = 19; twentieths >= 10 && overflows(box); twentieths--) {
      box.style.fontSize = (size * twentieths) / 20 + "px";
    }
    if (overflows(box)) box.style.overflowWrap = "";
  });
  var zone;
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch (error) {
    zone = "";
  }
  document.querySelectorAll("select[data-browser-time-zone]").forEach(function (list) {
    if (zone && list.querySelector('option[value="' + CSS.escape(zone) + '"]')) {
      list.value = zone;
    }
  });
})();
