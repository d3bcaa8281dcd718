// What the seat page says to a screen reader, through one live region (#announce) that
// live.js never replaces: the log lines and the table talk that came since the page was
// drawn, "It is your turn" when the turn comes, and a lesson's guide when it says
// something new. After the player's own move (the page comes back at #what-happened)
// the focus goes to what the move did. One-key commands,
// listed on the page and turned off by its checkbox (remembered in this browser): l the
// last moves, c whose turn and the clock, h the hand, f the frontier, g the goals, 1-9
// choose a card of the hand (play.js). Every word said is written by the server in the
// reader's language (the log, the talk, the status, #say); none is written here.
(function () {
  "use strict";
  var region = document.getElementById("announce");
  if (!region) return;
  var KEPT = 6;  // lines left in the region (older ones go: it is no transcript)
  var STORE = "saboteur.one-key";
  var toggle = document.getElementById("one-key");
  var keys = document.getElementById("keys");

  function announce(text) {
    text = (text || "").replace(/\s+/g, " ").trim();
    if (!text) return;
    var line = document.createElement("p");
    line.textContent = text;
    region.appendChild(line);
    while (region.children.length > KEPT) region.removeChild(region.firstChild);
  }

  // ---- what is new after a swap ----------------------------------------------------------
  function logLines() {
    return Array.prototype.map.call(document.querySelectorAll("#log .log-lines li"),
      function (li) { return li.textContent.replace(/\s+/g, " ").trim(); });
  }
  function talkLines() {
    return Array.prototype.map.call(document.querySelectorAll("#talk-messages li[data-id]"),
      function (li) {
        var who = li.querySelector(".who"), said = li.querySelector(".said");
        return { id: li.getAttribute("data-id"),
                 text: (who ? who.textContent : "") + ": " + (said ? said.textContent : "") };
      });
  }
  function myTurn() {
    var turn = document.querySelector("#status .your-turn");
    return turn ? turn.textContent : "";
  }
  // A lesson's guide (#lesson): read out whole when it says something new (a new step,
  // the bots' answer), after the moves that brought it.
  function lessonKey() {
    var box = document.getElementById("lesson");
    return box ? box.getAttribute("data-key") : null;
  }
  function sayLesson() {
    var box = document.getElementById("lesson");
    if (!box) return;
    var title = box.querySelector("h2"), words = box.querySelector(".lesson-words");
    announce((title ? title.textContent : "") + ". " + (words ? words.textContent : ""));
  }
  var lessonWas = lessonKey();
  var newestLine = logLines()[0] || null;  // the log is newest first
  var lastTalk = (talkLines().slice(-1)[0] || {}).id || null;
  var turnWas = myTurn();

  function sayNewTalk() {
    var lines = talkLines();
    var from = 0;
    if (lastTalk !== null) {
      lines.forEach(function (line, i) { if (line.id === lastTalk) from = i + 1; });
    }
    lines.slice(from).forEach(function (line) { announce(line.text); });
    if (lines.length) lastTalk = lines[lines.length - 1].id;
  }

  document.addEventListener("seat:refreshed", function () {
    var lines = logLines();
    var known = newestLine === null ? -1 : lines.indexOf(newestLine);
    var fresh = known < 0 ? lines.slice(0, 1) : lines.slice(0, known);
    fresh.reverse().forEach(announce);  // oldest first, as they were played
    newestLine = lines[0] || null;
    sayNewTalk();
    var turn = myTurn();
    if (turn && !turnWas) announce(turn);
    turnWas = turn;
    var lesson = lessonKey();
    if (lesson !== lessonWas) sayLesson();
    lessonWas = lesson;
  });
  document.addEventListener("seat:talk", sayNewTalk);

  // ---- after the player's own move: what it did ------------------------------------------
  var done = document.getElementById("what-happened");
  if (done && done.querySelector("li") && window.location.hash === "#what-happened") {
    done.setAttribute("tabindex", "-1");
    done.focus();
  }

  // ---- one-key commands ---------------------------------------------------------------------
  function on() { return !toggle || toggle.checked; }
  if (keys) keys.hidden = false;
  if (toggle) {
    try { toggle.checked = window.localStorage.getItem(STORE) !== "off"; } catch (e) { /* none */ }
    toggle.addEventListener("change", function () {
      try { window.localStorage.setItem(STORE, toggle.checked ? "on" : "off"); } catch (e) { /* none */ }
    });
  }

  function typing(target) {
    if (!target || !target.closest) return false;
    if (target.isContentEditable || target.closest("textarea, select")) return true;
    var input = target.closest("input");
    return !!input && ["checkbox", "radio", "button", "submit", "reset"].indexOf(input.type) < 0;
  }

  document.addEventListener("keydown", function (event) {
    if (!on() || event.altKey || event.ctrlKey || event.metaKey || typing(event.target)) return;
    var key = event.key;
    if (/^[1-9]$/.test(key)) {
      event.preventDefault();
      document.dispatchEvent(new CustomEvent("seat:choose", { detail: { index: +key - 1 } }));
      return;
    }
    var line = /^[lchfg]$/.test(key) && document.querySelector('#say [data-key="' + key + '"]');
    if (!line) return;
    event.preventDefault();
    announce(line.textContent);
  });
})();
