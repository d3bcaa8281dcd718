// Optional help on the seat page: choosing a card lights up the maze cells where it
// can go; tapping a lit cell picks that placement (tap again for the other way round);
// a bar at the bottom of the screen says what will be played and has the Play button,
// so a card, a cell and Play fit on one screen of a phone. Without this script the page
// works the same through its forms.
(function () {
  "use strict";
  var maze = document.querySelector("svg.maze");
  var forms = document.querySelectorAll("form.card-form");
  var bar = document.getElementById("turn-bar");
  if (!maze || !forms.length || !bar) return;
  var what = bar.querySelector(".what");
  var play = bar.querySelector("button.play");
  var active = null;

  function cellGroup(cell) {
    return maze.querySelector('.cell[data-cell="' + cell + '"]');
  }

  function say(text, ready) {
    bar.hidden = false;
    document.body.classList.add("choosing");
    what.textContent = text;
    play.disabled = !ready;
  }

  function chosenOption(form) {
    var select = form.querySelector("select");
    return select.value ? select.options[select.selectedIndex] : null;
  }

  function cardName(form) {
    var name = form.closest(".hand-card").querySelector(".card-name, .action-face");
    return name ? name.textContent.trim() : "";
  }

  function show(form, scroll) {
    active = form;
    maze.querySelectorAll(".cell").forEach(function (g) { g.classList.remove("lit", "chosen"); });
    document.querySelectorAll(".hand-card").forEach(function (c) {
      c.classList.toggle("active", c.contains(form));
    });
    var first = null;
    (form.dataset.cells || "").split(" ").forEach(function (cell) {
      var g = cell && cellGroup(cell);
      if (g) { g.classList.add("lit"); first = first || g; }
    });
    var option = chosenOption(form);
    var svg = form.closest(".hand-card").querySelector("svg.card-svg");
    if (svg) svg.classList.toggle("turned", !!option && option.value.indexOf('"rotated":true') >= 0);
    if (option && option.dataset.cell) {
      var g = cellGroup(option.dataset.cell);
      if (g) g.classList.add("chosen");
    }
    if (option) say(cardName(form) + ": " + option.textContent.trim(), true);
    else if (first) say(cardName(form) + ": " + bar.dataset.chooseCell, false);
    else say(cardName(form), false);
    if (scroll && first && !option) {
      first.scrollIntoView({ block: "center", inline: "center", behavior: "smooth" });
    }
  }

  forms.forEach(function (form) {
    var card = form.closest(".hand-card");
    var select = form.querySelector("select");
    card.addEventListener("click", function (event) {
      if (!event.target.closest("select, button, input, label")) show(form, true);
    });
    select.addEventListener("focus", function () { show(form, false); });
    select.addEventListener("change", function () { show(form, false); });
  });

  maze.addEventListener("click", function (event) {
    var g = event.target.closest(".cell");
    if (!active) { say(bar.dataset.noCard, false); return; }
    if (!g || !g.classList.contains("lit")) { say(bar.dataset.unlit, !!chosenOption(active)); return; }
    var select = active.querySelector("select");
    var options = Array.prototype.filter.call(select.options, function (o) {
      return o.dataset.cell === g.dataset.cell;
    });
    if (!options.length) return;
    var next = (options.indexOf(select.options[select.selectedIndex]) + 1) % options.length;
    options[next].selected = true;
    show(active, false);
  });

  play.addEventListener("click", function () {
    if (!active) return;
    if (chosenOption(active)) {
      if (active.requestSubmit) active.requestSubmit(); else active.submit();
    } else {
      active.querySelector("select").focus();
    }
  });
})();
