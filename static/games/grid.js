// The maze as a grid a keyboard walks (WAI-ARIA grid pattern): the maze is one tab stop,
// the cell last visited; the arrow keys move from cell to cell, Home and End to the ends
// of the row, Ctrl+Home and Ctrl+End to the first and the last cell. Each cell's name
// (written by the server, in the reader's language) says its card, exits and whether it
// joins the start. Used by the seat page, the spectators' page and the replay; the seat
// page's live.js replaces the maze while it is open, so the cell that had the focus gets
// it back (the "seat:refreshed" event names it). Without this script the cells are still
// read by a screen reader's table keys, and the start cell is the tab stop.
(function () {
  "use strict";
  var CELL = "svg.maze [role=gridcell]";
  var lastCell = null;  // "x,y" of the tab stop, kept across the maze's replacement

  function rows(grid) { return grid.querySelectorAll("[role=row]"); }

  function tabStop(cell) {
    var grid = cell.closest("svg.maze");
    grid.querySelectorAll('[role=gridcell][tabindex="0"]').forEach(function (other) {
      if (other !== cell) other.setAttribute("tabindex", "-1");
    });
    cell.setAttribute("tabindex", "0");
    lastCell = cell.getAttribute("data-cell");
  }

  function go(cell) {
    if (!cell) return;
    tabStop(cell);
    cell.focus();
  }

  function target(cell, event) {
    var grid = cell.closest("svg.maze");
    var all = rows(grid);
    var row = cell.parentNode;
    var cells = row.querySelectorAll("[role=gridcell]");
    var r = Array.prototype.indexOf.call(all, row);
    var c = Array.prototype.indexOf.call(cells, cell);
    function at(ri, ci) {
      var line = all[ri];
      return line ? line.querySelectorAll("[role=gridcell]")[ci] || null : null;
    }
    switch (event.key) {
      case "ArrowLeft": return at(r, c - 1);
      case "ArrowRight": return at(r, c + 1);
      case "ArrowUp": return at(r - 1, c);
      case "ArrowDown": return at(r + 1, c);
      case "Home": return event.ctrlKey ? at(0, 0) : at(r, 0);
      case "End":
        return event.ctrlKey ? at(all.length - 1, rows(grid)[all.length - 1]
          .querySelectorAll("[role=gridcell]").length - 1) : at(r, cells.length - 1);
      default: return undefined;
    }
  }

  document.addEventListener("keydown", function (event) {
    var cell = event.target.closest && event.target.closest(CELL);
    if (!cell || event.altKey || event.metaKey) return;
    var next = target(cell, event);
    if (next === undefined) return;
    event.preventDefault();  // the arrows move the focus, not the page or the replay
    event.stopPropagation();
    go(next);
  });

  document.addEventListener("focusin", function (event) {
    var cell = event.target.closest && event.target.closest(CELL);
    if (cell) tabStop(cell);
  });

  // The maze was replaced: the tab stop stays where the player left it, and the focus
  // comes back to it if it was in the maze.
  document.addEventListener("seat:refreshed", function (event) {
    var detail = event.detail || {};
    var key = detail.cell || lastCell;
    var cell = key && document.querySelector(CELL + '[data-cell="' + key + '"]');
    if (!cell) return;
    tabStop(cell);
    if (detail.cell) cell.focus({ preventScroll: true });
  });
})();
