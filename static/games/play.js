// Optional help on the seat page: choosing a card lights up the maze cells where it can
// go (for a map, the goals); tapping a lit cell picks that move and draws the card there
// as it would lie, upright or turned round ("Turn round", or a second tap, turns it); a
// rockfall's cell is marked. A bar at the bottom of the screen says what will be played,
// shows the chosen card as it will lie and has the Play and Turn buttons. Choosing a card
// brings the maze to the top of the screen, as tall as the room above the bar, zoomed out
// (never in) until every lit cell fits and centred on them: the lit cells, the preview,
// the card and Play are on one screen of a 390 x 844 phone in any position, a wide late
// maze included (it was 985 px of page, scrolled back and forth).
// By keyboard (the maze is a grid, grid.js): a card chosen by its number key (speak.js) or
// its list lights its cells, and each lit cell's name says so (the words are the card
// form's data-lit, written by the server); on a lit cell Enter plays the card there, Space
// turns it round (or picks the cell) first, Escape lets the card go.
// A guard against mis-taps (the seat's "Confirm my move" setting, on by default on touch
// screens): Play (the bar's, a card's own, Enter on a cell) first draws the chosen card
// in its cell and asks "Confirm: play <card>, <move>" with Confirm and Change in the
// bar; only Confirm sends the form. The question goes to the page's live region
// (#announce) and the focus to Confirm.
// Without this script the page works the same through its forms. The maze and the hand
// may be replaced by live.js while the page is open: everything here is looked up when
// used, and the listeners sit on the document.
(function () {
  "use strict";
  var SVG = "http://www.w3.org/2000/svg";
  var bar = document.getElementById("turn-bar");
  if (!bar) return;
  var what = bar.querySelector(".what");
  var play = bar.querySelector("button.play");
  var turn = bar.querySelector("button.turn");
  var cancel = bar.querySelector("button.cancel");
  var barCard = bar.querySelector(".bar-card");
  var buttons = bar.querySelector(".bar-buttons");
  var asking = bar.querySelector(".confirm-buttons");
  var confirmButton = bar.querySelector("button.confirm");
  var change = bar.querySelector("button.change");
  var active = null;
  var confirming = null;  // the card form waiting for Confirm
  var confirmed = null;   // the card form Confirm sends (its submit goes through)
  var GAP = 6;  // px kept free above the maze box and below it, over the bar

  function maze() { return document.querySelector("svg.maze"); }
  function mazeBox() { return document.querySelector("#maze .maze-scroll"); }

  function bounds(elements) {
    var box = null;
    Array.prototype.forEach.call(elements, function (element) {
      var r = element.getBoundingClientRect();
      box = box ? { left: Math.min(box.left, r.left), top: Math.min(box.top, r.top),
                    right: Math.max(box.right, r.right), bottom: Math.max(box.bottom, r.bottom) }
                : { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
    });
    return box;
  }

  // The maze at its own size again, in its own box (after a choice, or before fitting).
  function unfit() {
    var svg = maze(), box = mazeBox();
    if (svg) svg.style.width = "";
    if (box) box.style.maxHeight = "";
  }

  // Every lit cell on screen with the bar: the maze box at the top of the screen and as
  // tall as the room above the bar, the maze zoomed out until the lit cells fit in it,
  // the box scrolled to centre them. Styles set here are CSSOM properties, which the
  // Content-Security-Policy allows (it forbids only inline style attributes).
  function fit() {
    var svg = maze(), box = mazeBox();
    var lit = svg ? svg.querySelectorAll(".cell.lit") : [];
    unfit();
    if (!svg || !box || !lit.length) return;
    var room = Math.max(160, window.innerHeight - bar.getBoundingClientRect().height - 2 * GAP);
    box.style.maxHeight = room + "px";
    var natural = svg.getBoundingClientRect().width;
    var cells = bounds(lit);
    var inside = 12;  // the box's padding and a little air around the lit cells
    var scale = Math.min(1, (box.clientWidth - inside) / (cells.right - cells.left),
                         (room - inside) / (cells.bottom - cells.top));
    if (scale < 1) svg.style.width = Math.floor(natural * scale) + "px";
    cells = bounds(lit);
    var frame = box.getBoundingClientRect();
    box.scrollLeft += (cells.left + cells.right) / 2 - (frame.left + frame.right) / 2;
    box.scrollTop += (cells.top + cells.bottom) / 2 - (frame.top + frame.bottom) / 2;
    window.scrollBy(0, box.getBoundingClientRect().top - GAP);
  }

  // The chosen card in the bar, turned as it will lie (a path card's drawing; an action
  // card is named in the bar's words).
  function showCard(form, option) {
    if (!barCard) return;
    barCard.replaceChildren();
    var drawing = form && form.closest(".hand-card").querySelector("svg.card-svg");
    if (!drawing) { barCard.hidden = true; return; }
    var copy = drawing.cloneNode(true);
    copy.removeAttribute("width");
    copy.removeAttribute("height");
    copy.setAttribute("aria-hidden", "true");
    copy.classList.toggle("turned", !!option && moveOf(option).rotated === true);
    barCard.appendChild(copy);
    barCard.hidden = false;
  }

  function cellGroup(cell) {
    var svg = maze();
    return svg && cell ? svg.querySelector('.cell[data-cell="' + cell + '"]') : null;
  }

  function say(text, ready) {
    bar.hidden = false;
    document.body.classList.add("choosing");
    what.textContent = text;
    play.disabled = !ready;
    keepFocusAboveBar();
  }

  // While the bar shows, the page scrolls a focused control (Tab, a screen reader's
  // cursor) above it, never under it: a scroll padding as tall as the bar.
  function keepFocusAboveBar() {
    var root = document.documentElement.style;
    root.scrollPaddingBottom = bar.hidden ? "" : bar.getBoundingClientRect().height + GAP + "px";
  }
  window.addEventListener("resize", keepFocusAboveBar);
  // A text field is scrolled only until its caret shows, its lower part left under the
  // bar: once the browser has scrolled, the whole field is brought above the bar.
  document.addEventListener("focusin", function (event) {
    var field = event.target;
    if (bar.hidden || bar.contains(field) || !field.getBoundingClientRect) return;
    window.requestAnimationFrame(function () {
      var room = bar.getBoundingClientRect().top - GAP;
      var r = field.getBoundingClientRect();
      if (!bar.hidden && r.bottom > room && r.height < room) window.scrollBy(0, r.bottom - room);
    });
  });

  function chosenOption(form) {
    var select = form.querySelector("select");
    return select && select.value ? select.options[select.selectedIndex] : null;
  }

  function moveOf(option) {
    try { return JSON.parse(option.value); } catch (e) { return {}; }
  }

  function cardName(form) {
    var name = form.closest(".hand-card").querySelector(".card-name, .action-face");
    return name ? name.textContent.trim() : "";
  }

  function optionsAt(form, cell) {
    return Array.prototype.filter.call(form.querySelector("select").options, function (o) {
      return o.dataset.cell === cell;
    });
  }

  // A cell's name: its words, and what the chosen card would do there.
  function name(g, extra) {
    if (g.dataset.words === undefined) g.dataset.words = g.getAttribute("aria-label") || "";
    g.setAttribute("aria-label", extra.length ? [g.dataset.words].concat(extra).join("; ")
                                              : g.dataset.words);
  }

  function clearMaze() {
    var svg = maze();
    if (!svg) return;
    svg.querySelectorAll(".cell").forEach(function (g) {
      g.classList.remove("lit", "chosen");
      if (g.dataset.words !== undefined) name(g, []);
    });
    svg.querySelectorAll(".preview").forEach(function (p) { p.remove(); });
  }

  // The chosen card drawn in its cell, turned as it would lie; a rockfall's cross.
  function preview(form, option, g) {
    var move = moveOf(option);
    var layer = document.createElementNS(SVG, "g");
    layer.setAttribute("class", "preview preview-" + (move.type || "move"));
    if (move.type === "place") {
      var drawing = form.closest(".hand-card").querySelector("svg.card-svg");
      var face = document.createElementNS(SVG, "g");
      if (move.rotated) face.setAttribute("transform", "rotate(180 50 50)");
      if (drawing) {
        Array.prototype.forEach.call(drawing.childNodes, function (node) {
          face.appendChild(node.cloneNode(true));
        });
      }
      layer.appendChild(face);
    } else if (move.type === "rockfall") {
      [["18", "18", "82", "82"], ["82", "18", "18", "82"]].forEach(function (line) {
        var cross = document.createElementNS(SVG, "line");
        ["x1", "y1", "x2", "y2"].forEach(function (key, i) { cross.setAttribute(key, line[i]); });
        layer.appendChild(cross);
      });
    }
    var frame = document.createElementNS(SVG, "rect");
    ["x", "y", "width", "height", "rx"].forEach(function (key, i) {
      frame.setAttribute(key, ["3", "3", "94", "94", "7"][i]);
    });
    frame.setAttribute("class", "preview-frame");
    layer.appendChild(frame);
    g.appendChild(layer);
  }

  function show(form, refit) {
    endAsking();  // another card, cell or turn: the question is asked again at Play
    active = form;
    clearMaze();
    document.querySelectorAll(".hand-card").forEach(function (c) {
      c.classList.toggle("active", c.contains(form));
    });
    var first = null;
    (form.dataset.cells || "").split(" ").forEach(function (cell) {
      var g = cellGroup(cell);
      if (g) { g.classList.add("lit"); name(g, [form.dataset.lit]); first = first || g; }
    });
    var option = chosenOption(form);
    var drawing = form.closest(".hand-card").querySelector("svg.card-svg");
    if (drawing) drawing.classList.toggle("turned", !!option && moveOf(option).rotated === true);
    var chosen = option && cellGroup(option.dataset.cell);
    if (chosen) {
      chosen.classList.add("chosen");
      name(chosen, [form.dataset.lit, option.textContent.trim()]);
      preview(form, option, chosen);
    }
    turn.hidden = !(option && option.dataset.cell && optionsAt(form, option.dataset.cell).length > 1);
    showCard(form, option);
    if (option) say(cardName(form) + ": " + option.textContent.trim(), true);
    else if (first) say(cardName(form) + ": " + bar.dataset.chooseCell, false);
    else say(cardName(form), false);
    // A new card, or a move picked from its list: bring the lit cells on screen. Not while
    // its list is only focused (the list would leave the screen under the finger).
    if (first && refit) fit();
  }

  // The next move of the active card on this cell (upright, then turned round, ...).
  function cycle(cell) {
    var select = active.querySelector("select");
    var options = optionsAt(active, cell);
    if (!options.length) return;
    var next = (options.indexOf(select.options[select.selectedIndex]) + 1) % options.length;
    options[next].selected = true;
    show(active, false);
  }

  // Whether Play asks once more: the seat's setting, "touch" decided by this device.
  function asks() {
    var setting = bar.dataset.confirmMoves;
    if (!asking || setting === "never") return false;
    if (setting === "always") return true;
    return !!(window.matchMedia && window.matchMedia("(pointer: coarse)").matches);
  }

  // The confirm step: the chosen card drawn in its cell (show), the question in the bar
  // and the live region, Confirm and Change instead of Turn, Cancel and Play.
  function askFirst(form) {
    var option = chosenOption(form);
    if (!option) return;
    show(form, true);
    confirming = form;
    var text = (bar.dataset.confirmWords || "").replace("{card}", cardName(form))
      .replace("{move}", option.textContent.trim());
    bar.setAttribute("aria-live", "off");  // said once, by #announce
    say(text, true);
    buttons.hidden = true;
    asking.hidden = false;
    var region = document.getElementById("announce");
    if (region) {
      var line = document.createElement("p");
      line.textContent = text;
      region.appendChild(line);
    }
    confirmButton.focus({ preventScroll: true });
  }

  function endAsking() {
    confirming = null;
    if (!asking) return;
    asking.hidden = true;
    buttons.hidden = false;
    bar.setAttribute("aria-live", "polite");
  }

  function stop() {
    endAsking();
    if (active) active.querySelector("select").value = "";
    active = null;
    clearMaze();
    unfit();
    showCard(null, null);
    document.querySelectorAll(".hand-card.active").forEach(function (c) {
      c.classList.remove("active");
    });
    document.querySelectorAll("svg.card-svg.turned").forEach(function (s) {
      s.classList.remove("turned");
    });
    bar.hidden = true;
    document.body.classList.remove("choosing");
    keepFocusAboveBar();
    document.dispatchEvent(new CustomEvent("seat:idle"));
  }

  function formOf(target) {
    var card = target.closest && target.closest(".hand-card");
    return card ? card.querySelector("form.card-form") : null;
  }

  document.addEventListener("click", function (event) {
    var form = formOf(event.target);
    if (form && !event.target.closest("select, button, input, label")) {
      show(form, true);
      return;
    }
    var svg = maze();
    if (!svg || !svg.contains(event.target) || !document.querySelector("form.card-form")) {
      return;  // not this seat's turn to play a card: the maze is only to look at
    }
    var g = event.target.closest(".cell");
    if (!active || !document.contains(active)) { say(bar.dataset.noCard, false); return; }
    if (!g || !g.classList.contains("lit")) {
      say(bar.dataset.unlit, !!chosenOption(active));
      return;
    }
    cycle(g.dataset.cell);
  });
  ["focusin", "change"].forEach(function (kind) {
    document.addEventListener(kind, function (event) {
      if (event.target.matches && event.target.matches("form.card-form select")) {
        show(event.target.closest("form"), kind === "change");
      }
    });
  });

  function submit(form) {
    if (form.requestSubmit) form.requestSubmit(); else form.submit();
  }

  // The keyboard on the maze's cells.
  document.addEventListener("keydown", function (event) {
    var g = event.target.closest && event.target.closest("svg.maze .cell");
    if (!g || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === "Escape" && active) { event.preventDefault(); stop(); return; }
    if (event.key !== "Enter" && event.key !== " ") return;
    if (!document.querySelector("form.card-form")) return;  // not this seat's turn
    event.preventDefault();
    if (!active || !document.contains(active)) { say(bar.dataset.noCard, false); return; }
    if (!g.classList.contains("lit")) { say(bar.dataset.unlit, !!chosenOption(active)); return; }
    var option = chosenOption(active);
    if (event.key === " " || !option || option.dataset.cell !== g.dataset.cell) {
      cycle(g.dataset.cell);  // picks this cell (upright first), or turns the card round
    }
    if (event.key === "Enter") submit(active);
  });

  // A card chosen by its number (speak.js): its cells light up and the focus goes to the
  // first of them; a card that goes on no cell (a player, a pass) opens its list instead.
  document.addEventListener("seat:choose", function (event) {
    var cards = document.querySelectorAll("#hand .hand-card");
    var card = cards[event.detail.index];
    var form = card && card.querySelector("form.card-form");
    if (!form) return;
    show(form, true);
    var first = maze() && maze().querySelector(".cell.lit");
    if (first) first.focus(); else form.querySelector("select").focus();
  });

  turn.addEventListener("click", function () {
    var option = active && chosenOption(active);
    if (option) cycle(option.dataset.cell);
  });
  // Every way a card form is sent (its own Play, the bar's, Enter on a cell) passes here:
  // with the guard on, the first one asks instead.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("form.card-form")) return;
    if (form === confirmed) { confirmed = null; return; }
    if (!asks()) return;
    event.preventDefault();
    askFirst(form);
  }, true);
  if (asking) {
    confirmButton.addEventListener("click", function () {
      var form = confirming;
      if (!form || !document.contains(form)) { stop(); return; }
      confirmed = form;
      endAsking();
      submit(form);
    });
    // Change: back to choosing, the same card and move kept, the focus on its cell (or
    // its list), without scrolling the maze away.
    change.addEventListener("click", function () {
      var form = confirming;
      endAsking();
      if (!form || !document.contains(form)) { stop(); return; }
      show(form, false);
      var option = chosenOption(form);
      var cell = option && cellGroup(option.dataset.cell);
      (cell || form.querySelector("select")).focus({ preventScroll: true });
    });
    bar.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && confirming) { event.preventDefault(); change.click(); }
    });
  }
  cancel.addEventListener("click", stop);
  play.addEventListener("click", function () {
    if (!active) return;
    if (chosenOption(active)) {
      submit(active);
    } else {
      active.querySelector("select").focus();
    }
  });

  // The hint names the lit cells only when this script runs (without it nothing lights).
  function hints() {
    document.querySelectorAll(".hint[data-script-hint]").forEach(function (hint) {
      hint.textContent = hint.dataset.scriptHint;
    });
  }
  hints();
  document.addEventListener("seat:refreshed", function () {
    active = null;
    endAsking();
    hints();
  });
})();
