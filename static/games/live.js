// The seat page follows the game while it is open and visible: it asks the small version
// endpoint (GET /api/play/<secret>/version) every few seconds, backing off while nothing
// changes; when a move, a table notice or a message came, it fetches the page's changing
// parts (/play/<secret>/live) and swaps them in: status, maze (the cells the latest moves
// changed are marked by the server), hand, players, log and table talk. While the player is choosing a move nothing is swapped: the turn bar
// says new moves came, and they show when the player plays, cancels or asks. Both requests
// count against the link's rate limit: a 429 from either is honoured, nothing is asked
// again before its Retry-After is over. Without this script the page has a "refresh" link
// instead. GET only: nothing here changes the game.
(function () {
  "use strict";
  var marks = document.getElementById("live");
  if (!marks || !window.fetch || !window.DOMParser) return;
  var PARTS = ["live", "live-status", "maze", "hand", "live-table", "talk-messages"];
  var FIRST = 3000, LONGEST = 10000, ERROR_LONGEST = 120000;
  var delay = FIRST, timer = null, busy = false, stopped = false, pending = false;
  var quietUntil = 0;  // a 429's Retry-After: no request before this time
  var bar = document.getElementById("turn-bar");

  function seen(element) {
    var d = element.dataset;
    return [d.version, d.talk, d.notice, d.status].join("/");
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

  function showPending() {
    if (!bar) return;
    var note = bar.querySelector(".pending");
    note.querySelector(".pending-text").textContent = marks.dataset.pending;
    note.hidden = false;
    bar.classList.toggle("only-pending", !document.body.classList.contains("choosing"));
    bar.hidden = false;
  }

  function swap(html) {
    var fresh = new DOMParser().parseFromString(html, "text/html");
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
      if (bar.classList.contains("only-pending")) bar.hidden = true;
      bar.classList.remove("only-pending");
    }
    document.dispatchEvent(new CustomEvent("seat:refreshed"));
  }

  // The wait a 429 asks for (Retry-After, in seconds), in milliseconds; nothing is asked
  // before it is over.
  function tooMany(answer) {
    var wait = Math.max(1, parseInt(answer.headers.get("Retry-After") || "60", 10) || 60) * 1000;
    quietUntil = Date.now() + wait;
    return { retry: wait };
  }

  function refresh() {
    if (choosing() || Date.now() < quietUntil) {
      pending = true;  // the next check, after any wait, fetches it
      if (choosing()) showPending();
      return Promise.resolve();
    }
    pending = false;
    return fetch(marks.dataset.part, { credentials: "same-origin", cache: "no-store" })
      .then(function (answer) {
        if (answer.status === 429) { pending = true; throw tooMany(answer); }
        if (!answer.ok) throw { retry: Math.min(ERROR_LONGEST, delay * 2) };
        return answer.text();
      })
      .then(swap);
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
        var current = [now.version, now.talk, now.notice, now.status].join("/");
        if (current !== known || pending) {
          delay = FIRST;
          return refresh();
        }
        delay = Math.min(LONGEST, Math.round(delay * 1.25));
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
