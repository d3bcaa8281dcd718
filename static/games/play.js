// Optional help on the seat page: choosing a card lights up the maze cells where it
// can go; clicking a lit cell picks that placement (click again for the other way
// round). Without this script the page works the same through its forms.
(function () {
  "use strict";
  var maze = document.querySelector("svg.maze");
  var forms = document.querySelectorAll("form.card-form");
  if (!maze || !forms.length) return;
  var active = null;

  function cellGroup(cell) {
    return maze.querySelector('.cell[data-cell="' + cell + '"]');
  }

  function show(form) {
    active = form;
    maze.querySelectorAll(".cell").forEach(function (g) { g.classList.remove("lit", "chosen"); });
    document.querySelectorAll(".hand-card").forEach(function (c) {
      c.classList.toggle("active", c.contains(form));
    });
    (form.dataset.cells || "").split(" ").forEach(function (cell) {
      var g = cell && cellGroup(cell);
      if (g) g.classList.add("lit");
    });
    var select = form.querySelector("select");
    var option = select.options[select.selectedIndex];
    var svg = form.closest(".hand-card").querySelector("svg.card-svg");
    if (svg) svg.classList.toggle("turned", !!option && option.value.indexOf('"rotated":true') >= 0);
    if (option && option.dataset.cell) {
      var g = cellGroup(option.dataset.cell);
      if (g) g.classList.add("chosen");
    }
  }

  forms.forEach(function (form) {
    var card = form.closest(".hand-card");
    var select = form.querySelector("select");
    card.addEventListener("click", function (event) {
      if (!event.target.closest("select, button")) show(form);
    });
    select.addEventListener("focus", function () { show(form); });
    select.addEventListener("change", function () { show(form); });
  });

  maze.addEventListener("click", function (event) {
    var g = event.target.closest(".cell.lit");
    if (!g || !active) return;
    var select = active.querySelector("select");
    var options = Array.prototype.filter.call(select.options, function (o) {
      return o.dataset.cell === g.dataset.cell;
    });
    if (!options.length) return;
    var next = (options.indexOf(select.options[select.selectedIndex]) + 1) % options.length;
    options[next].selected = true;
    show(active);
  });
})();
