// The replay pages: the left and right arrow keys step back and forth (Home and End go to
// the deal and the last move). The links do the same without this script. In a form field
// or a scrolling box (the table of hands) the keys keep their own meaning, and in the
// maze they move from cell to cell (grid.js).
(function () {
  "use strict";
  var keys = { ArrowLeft: "replay-prev", ArrowRight: "replay-next", Home: "replay-first",
               End: "replay-last" };
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest && event.target.closest("input, select, textarea, [role=region], [role=grid]")) return;
    var link = document.getElementById(keys[event.key] || "");
    if (link) { event.preventDefault(); window.location.href = link.href; }
  });
})();
