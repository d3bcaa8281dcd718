// The service worker (games.push, served as /sw.js). It caches nothing: there is no
// fetch handler, so every page comes from the server. It shows each push as a
// notification (never silently), posts a receipt when it shows one and when it is
// clicked, and opens the game through the person's home. It stores nothing: what a
// click opens travels in the notification's own data.
"use strict";

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) {
  event.waitUntil(self.clients.claim());
});

function receipt(path, what) {
  if (!path) { return Promise.resolve(); }
  return fetch(path, {
    method: "POST", credentials: "omit",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ event: what })
  }).catch(function () { return undefined; });
}

self.addEventListener("push", function (event) {
  var alert = {};
  try { alert = event.data ? event.data.json() : {}; } catch (ignored) { alert = {}; }
  var title = alert.title || "Saboteur";
  var shown = self.registration.showNotification(title, {
    body: alert.body || "",
    tag: alert.tag || "saboteur",
    renotify: true,
    icon: alert.icon || undefined,
    data: { url: alert.url || "/", receipt: alert.receipt || "" }
  }).then(function () { return receipt(alert.receipt, "shown"); });
  event.waitUntil(shown);
});

self.addEventListener("notificationclick", function (event) {
  var data = event.notification.data || {};
  event.notification.close();
  var url = new URL(data.url || "/", self.location.origin).href;
  event.waitUntil(Promise.all([
    receipt(data.receipt, "clicked"),
    self.clients.openWindow(url)
  ]));
});
