// Every page's small behaviours, kept out of the pages so that the Content-Security-Policy
// allows no inline script: a button marked data-print prints the page, a form marked
// data-confirm asks its question before it is sent (without JavaScript it is sent at once),
// and a time zone list marked data-browser-time-zone (a new tournament's) starts on the
// zone the organiser's browser is in, when the list has it (otherwise the site's stays).
(function () {
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-print]");
    if (button) window.print();
  });
  document.addEventListener("submit", function (event) {
    var question = event.target.getAttribute("data-confirm");
    if (question && !window.confirm(question)) event.preventDefault();
  });
  document.addEventListener("DOMContentLoaded", function () {
    var zone;
    try {
      zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    } catch (error) {
      return;
    }
    document.querySelectorAll("select[data-browser-time-zone]").forEach(function (list) {
      if (zone && list.querySelector('option[value="' + CSS.escape(zone) + '"]')) {
        list.value = zone;
      }
    });
  });
})();
