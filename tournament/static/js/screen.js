// The hall's screen: htmx (loaded before this) fetches each panel in turn; this script keeps
// the session clock counting down between the polls (helpers.js, loaded before it too) and
// says when the server stops answering. Its only text, "Time is up", comes from the page
// (data-text-up), translated.
(function () {
  "use strict";
  // The clock (helpers.js) is found again at each tick: a poll that brings a new header
  // brings its clock, read as it arrives.
  window.mcr.countdown("[data-screen-clock]");

  // A poll without an answer leaves the panel as it was (htmx swaps nothing) and the next
  // poll asks again; meanwhile a small note says so.
  var offline = document.querySelector("[data-screen-offline]");
  function problem() { if (offline) offline.hidden = false; }
  document.body.addEventListener("htmx:sendError", problem);
  document.body.addEventListener("htmx:timeout", problem);
  document.body.addEventListener("htmx:responseError", problem);
  document.body.addEventListener("htmx:afterSwap", function () { if (offline) offline.hidden = true; });
})();
