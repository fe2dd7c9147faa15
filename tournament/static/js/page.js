// Every page's small behaviours, kept out of the pages so that the Content-Security-Policy
// allows no inline script: a button marked data-print prints the page, and a form marked
// data-confirm asks its question before it is sent (without JavaScript it is sent at once).
(function () {
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-print]");
    if (button) window.print();
  });
  document.addEventListener("submit", function (event) {
    var question = event.target.getAttribute("data-confirm");
    if (question && !window.confirm(question)) event.preventDefault();
  });
})();
