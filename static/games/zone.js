// Time zone lists (games/web/seat_forms.py ZoneSelect) that still hold UTC, the default
// nobody chose, carry data-zone-guess: preselect the browser's own zone there (the setup
// page, the standby sign-up, the home's and the seat page's settings) and say so beside
// the list; the form is sent only when the player presses its button. A zone the list
// lacks (an older name some browsers give) is added: the server checks every name.
// Without this script the list stays at UTC. Nothing here changes anything on the server.
(function () {
  "use strict";
  var browserZone = "";
  try {
    browserZone = new Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  } catch (e) {
    return;
  }
  if (!browserZone || browserZone === "UTC" || browserZone === "Etc/UTC") return;
  document.querySelectorAll("select[data-zone-guess]").forEach(function (select) {
    if (select.value !== "UTC") return;
    var option = Array.prototype.find.call(select.options, function (o) {
      return o.value === browserZone;
    });
    if (!option) {
      option = new Option(browserZone.replace(/_/g, " "), browserZone);
      select.insertBefore(option, select.options[0] || null);
    }
    option.selected = true;
    var note = document.createElement("span");
    note.className = "hint zone-guess";
    note.setAttribute("role", "status");
    note.textContent = " " + select.dataset.zoneGuess.replace("%(zone)s", browserZone);
    select.insertAdjacentElement("afterend", note);
  });
})();
