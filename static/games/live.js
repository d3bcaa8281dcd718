// The seat page follows the game while it is open and visible: it asks the small version
// endpoint (GET /api/play/<secret>/version) every few seconds, backing off while nothing
// changes; when a move, a table notice or a message came, it fetches the page's changing parts (/play/<secret>/live) and swaps them in: status,
// maze (the cells the latest moves changed are marked by the server), hand, players, log
// and table talk (and a lesson's guide). While the player is choosing a move nothing is swapped: the turn bar
// says new moves came, and they show when the player plays, cancels or asks. A new line of
// table talk alone changes neither the maze nor the hand: only the talk is swapped, even
// while the player chooses, and nothing is said about moves. Once later moves come, the
// notices at the top (what the player's own move did) are cleared: they are old news.
// Each swap says so ("seat:refreshed", "seat:talk"): speak.js reads out what is new.
// Both requests count against the link's rate limit: a 429 from either is honoured,
// nothing is asked again before its Retry-After is over. Without this script the page has a "refresh" link instead. GET only: nothing here
// changes the game.
(function () {
  "use strict";
  var marks = document.getElementById("live");
  if (!marks || !window.fetch || !window.DOMParser) return;
  var PARTS = ["live", "live-status", "lesson", "maze", "hand", "live-table", "talk-messages"];
  var FIRST = 3000, LONGEST = 10000, ERROR_LONGEST = 120000;
  var delay = FIRST, timer = null, busy = false, stopped = false, pending = false;
  var quietUntil = 0;  // a 429's Retry-After: no request before this time
  var bar = document.getElementById("turn-bar");

  // What the page shows: the game (moves, table notices, status) and the talk apart.
  function seen(element) {
    var d = element.dataset;
    return { game: [d.version, d.notice, d.status].join("/"), talk: String(d.talk),
             version: d.version };
  }
  var known = seen(marks);

  function hideRefreshLinks() {
    document.querySelectorAll(".refresh-link").forEach(function (link) { link.hidden = true; });
  }

  function choosing() {
    var hand = document.getElementById("hand");
    if (document.body.classList.contains("choosing")) return true;
    if (!hand) return false;
    if (hand.contains(document.activeElement) && document.activeElement !== hand) return true;
    return Array.prototype.some.call(hand.querySelectorAll("select, input[type=checkbox], input[type=radio]"),
      function (field) { return field.type === "select-one" ? !!field.value : field.checked; });
  }

  function schedule(ms) {
    clearTimeout(timer);
    if (!stopped && document.visibilityState === "visible") timer = setTimeout(check, ms);
  }

  function showPending(movesCame) {
    if (!bar) return;
    var note = bar.querySelector(".pending");
    // New moves, or only a table notice (a vacation, a moderator's note): say which.
    if (movesCame || !note.dataset.moves) note.dataset.moves = movesCame ? "1" : "";
    note.querySelector(".pending-text").textContent = note.dataset.moves
      ? marks.dataset.pending : marks.dataset.pendingNotice;
    note.hidden = false;
    bar.classList.toggle("only-pending", !document.body.classList.contains("choosing"));
    bar.hidden = false;
  }

  function clearNotices() {
    var notices = document.getElementById("what-happened");
    if (notices) notices.replaceChildren();
  }

  // Only the table talk (a message came, nothing else changed): the maze, the hand and a
  // choice in progress stay as they are.
  function swapTalk(html) {
    var fresh = new DOMParser().parseFromString(html, "text/html");
    var incoming = fresh.getElementById("talk-messages");
    var current = document.getElementById("talk-messages");
    var freshMarks = fresh.getElementById("live");
    if (!incoming || !current || !freshMarks) return;
    current.replaceWith(document.importNode(incoming, true));
    marks.dataset.talk = freshMarks.dataset.talk;
    known = seen(marks);
    document.dispatchEvent(new CustomEvent("seat:talk"));
  }

  function swap(html) {
    var fresh = new DOMParser().parseFromString(html, "text/html");
    var freshMarks = fresh.getElementById("live");
    if (freshMarks && freshMarks.dataset.version !== known.version) clearNotices();
    // The maze cell that has the focus gets it back in the new maze (grid.js).
    var focused = document.activeElement && document.activeElement.closest
      && document.activeElement.closest("svg.maze [role=gridcell]");
    var scroll = {};
    document.querySelectorAll(".maze-scroll, .log-scroll").forEach(function (box) {
      scroll[box.className] = [box.scrollLeft, box.scrollTop];
    });
    PARTS.forEach(function (id) {
      var incoming = fresh.getElementById(id);
      var current = document.getElementById(id);
      if (incoming && current) current.replaceWith(document.importNode(incoming, true));
    });
    document.querySelectorAll(".maze-scroll, .log-scroll").forEach(function (box) {
      var kept = scroll[box.className];
      if (kept) { box.scrollLeft = kept[0]; box.scrollTop = kept[1]; }
    });
    marks = document.getElementById("live");
    known = seen(marks);
    hideRefreshLinks();
    if (bar) {
      bar.querySelector(".pending").hidden = true;
      bar.querySelector(".pending").dataset.moves = "";
      if (bar.classList.contains("only-pending")) bar.hidden = true;
      bar.classList.remove("only-pending");
    }
    document.dispatchEvent(new CustomEvent("seat:refreshed", {
      detail: { cell: focused ? focused.getAttribute("data-cell") : null } }));
  }

  // The wait a 429 asks for (Retry-After, in seconds), in milliseconds; nothing is asked
  // before it is over.
  function tooMany(answer) {
    var wait = Math.max(1, parseInt(answer.headers.get("Retry-After") || "60", 10) || 60) * 1000;
    quietUntil = Date.now() + wait;
    return { retry: wait };
  }

  function fetchPart() {
    return fetch(marks.dataset.part, { credentials: "same-origin", cache: "no-store" })
      .then(function (answer) {
        if (answer.status === 429) { pending = true; throw tooMany(answer); }
        if (!answer.ok) throw { retry: Math.min(ERROR_LONGEST, delay * 2) };
        return answer.text();
      });
  }

  function refresh(movesCame) {
    if (choosing() || Date.now() < quietUntil) {
      pending = true;  // the next check, after any wait, fetches it
      if (choosing()) showPending(movesCame);
      return Promise.resolve();
    }
    pending = false;
    return fetchPart().then(swap);
  }

  // A refresh outside the polling (the player stopped choosing): a refusal waits too.
  function refreshNow() {
    refresh().catch(function (error) {
      delay = (error && error.retry) || Math.min(ERROR_LONGEST, delay * 2);
      schedule(delay);
    });
  }

  function check() {
    if (busy) return;
    if (Date.now() < quietUntil) { schedule(quietUntil - Date.now()); return; }
    busy = true;
    fetch(marks.dataset.poll, { credentials: "same-origin", cache: "no-store",
                                headers: { Accept: "application/json" } })
      .then(function (answer) {
        if (answer.status === 429) throw tooMany(answer);
        if (answer.status === 404 || answer.status === 403) {
          stopped = true;  // the link was replaced, or is an invitation: nothing to follow
          throw { retry: 0 };
        }
        if (!answer.ok) throw { retry: Math.min(ERROR_LONGEST, delay * 2) };
        return answer.json();
      })
      .then(function (now) {
        var gameChanged = [now.version, now.notice, now.status].join("/") !== known.game;
        var talkChanged = String(now.talk) !== known.talk;
        delay = gameChanged || talkChanged ? FIRST : Math.min(LONGEST, Math.round(delay * 1.25));
        var work = Promise.resolve();
        if (gameChanged || pending) work = refresh(String(now.version) !== known.version);
        // A whole refresh brings the talk too; while choosing only the talk is swapped.
        if (talkChanged && (choosing() || !(gameChanged || pending))) {
          work = work.then(fetchPart).then(swapTalk);
        }
        return work;
      })
      .catch(function (error) {
        delay = (error && error.retry) || Math.min(ERROR_LONGEST, delay * 2);
      })
      .then(function () {
        busy = false;
        schedule(delay);
      });
  }

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") {
      delay = FIRST;
      schedule(Math.max(0, quietUntil - Date.now()));
    }
    else clearTimeout(timer);
  });
  // The player stopped choosing (played, cancelled): show what came meanwhile.
  document.addEventListener("seat:idle", function () { if (pending) refreshNow(); });
  if (bar) {
    bar.querySelector(".show-new").addEventListener("click", function () {
      document.querySelectorAll("#hand select").forEach(function (s) { s.value = ""; });
      document.querySelectorAll("#hand input:checked").forEach(function (box) {
        box.checked = false;
      });
      if (document.activeElement) document.activeElement.blur();
      // Stopping the choice (play.js) says "idle", which shows what is pending.
      if (document.body.classList.contains("choosing")) bar.querySelector("button.cancel").click();
      else refreshNow();
    });
  }
  hideRefreshLinks();
  schedule(FIRST);
})();
