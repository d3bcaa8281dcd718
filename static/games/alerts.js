// The home's "Turn alerts on" (games.push): after the person presses the button (a
// gesture: browsers ask for permission only then), register the service worker, subscribe
// with the server's VAPID key and send the subscription to POST /api/me/<token>/devices.
// Without this script the section says alerts need it; everything else is forms.
(function () {
  "use strict";
  var box = document.getElementById("alerts-on");
  if (!box) { return; }
  var form = document.getElementById("alerts-form");
  var status = document.getElementById("alerts-status");
  var needsScript = box.querySelector(".alerts-needs-script");
  if (needsScript) { needsScript.hidden = true; }

  function say(text) { status.textContent = text; }

  if (!("serviceWorker" in navigator) || !("PushManager" in window) ||
      !("Notification" in window)) {
    say(box.dataset.unsupported);
    return;
  }
  form.hidden = false;

  function keyBytes(base64url) {
    var padded = (base64url + "===".slice((base64url.length + 3) % 4))
      .replace(/-/g, "+").replace(/_/g, "/");
    var raw = window.atob(padded);
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i += 1) { bytes[i] = raw.charCodeAt(i); }
    return bytes;
  }

  function chosenKinds() {
    var boxes = form.querySelectorAll("input[name=kinds]:checked");
    return Array.prototype.map.call(boxes, function (input) { return input.value; });
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    say(box.dataset.working);
    Notification.requestPermission().then(function (permission) {
      if (permission !== "granted") { throw new Error("denied"); }
      return navigator.serviceWorker.register(box.dataset.worker, { scope: "/" });
    }).then(function () {
      return navigator.serviceWorker.ready;
    }).then(function (registration) {
      return registration.pushManager.getSubscription().then(function (found) {
        return found || registration.pushManager.subscribe({
          userVisibleOnly: true, applicationServerKey: keyBytes(box.dataset.key)
        });
      });
    }).then(function (subscription) {
      return fetch(box.dataset.api, {
        method: "POST", credentials: "omit",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          subscription: subscription.toJSON(),
          name: document.getElementById("alerts-name").value,
          kinds: chosenKinds()
        })
      });
    }).then(function (answer) {
      if (!answer.ok) {
        // The server's refusal is in the home's language: say it as it is.
        return answer.json().then(function (body) {
          var refused = new Error("refused");
          refused.said = body.error && body.error.message;
          throw refused;
        });
      }
      say(box.dataset.done);
      window.setTimeout(function () { window.location.reload(); }, 1500);
    }).catch(function (error) {
      if (error && error.message === "denied") { say(box.dataset.denied); return; }
      // The browser's own errors are in its words and language, not the home's.
      say((error && error.said) || box.dataset.failed);
    });
  });
}());
