// The service worker (served at /sw.js after one line of this version's data,
// self.SCOREKEEPER: scorekeeper/web/offline/views.py). Plain Cache API, one cache per version:
// - install: keep this version's static files (their exact versioned URLs), the offline
//   page and the empty form, as the phone opens it and in each language (?lang=, asked without
//   cookies: asking sets no language for the phone); activate: delete every other version's cache.
// - the static files of this version come from the cache; the form (GET /) from the
//   network while there is one, kept when it belongs to this version, else from the cache
//   (in the language asked for, ?lang=, when one is);
// - any other page goes to the network, and the offline page stands in when there is none.
//   Nothing else is ever kept (saved games, groups, tables, edit links: never).
// - a game posted from the form without a connection comes back to the form, which keeps
//   it and posts it again when the phone is back online (static/js/entry.js); any other
//   post without a connection gets the offline page.
/* global self, caches, fetch, Response, URL */
(function () {
  "use strict";
  var app = self.SCOREKEEPER, cacheName = "scorekeeper-" + app.version;
  var form = new URL(app.form, self.location.href).href, offline = new URL(app.offline, self.location.href).href;
  var kept = {};
  app.kept.forEach(function (url) { kept[new URL(url, self.location.href).href] = true; });

  function isForm(url) {  // the empty form, in any language
    return url.origin + url.pathname === form && /^(\?(lang=\w+|offline=\w+))?$/.test(url.search);
  }
  function inLanguage(url) {  // where the form in the language *url* asks for is kept (null: none asked)
    var language = url.searchParams.get("lang");
    return app.languages.indexOf(language) >= 0 ? form + "?lang=" + language : null;
  }
  function keepable(response) {  // a form page of this very version, that may be kept at all
    return response.ok && response.type === "basic" && !response.redirected &&
      response.headers.get(app.versionHeader) === app.version &&
      !/no-store/.test(response.headers.get("Cache-Control") || "");
  }

  self.addEventListener("install", function (event) {
    event.waitUntil(caches.open(cacheName).then(function (cache) {
      return cache.addAll(Object.keys(kept).concat([offline])).then(function () {
        return Promise.all([form].concat(app.languages.map(function (language) {
          return form + "?lang=" + language;
        })).map(function (page) {
          return fetch(page, { credentials: page === form ? "same-origin" : "omit" }).then(function (response) {
            if (keepable(response)) { return cache.put(page, response); }
          }).catch(function () { /* kept at the next visit of the form */ });
        }));
      });
    }).then(function () { return self.skipWaiting(); }));
  });

  self.addEventListener("activate", function (event) {
    event.waitUntil(caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) {
        return name.indexOf("scorekeeper-") === 0 && name !== cacheName;
      }).map(function (name) { return caches.delete(name); }));
    }).then(function () { return self.clients.claim(); }));
  });

  function fromCache(url) {
    return caches.open(cacheName).then(function (cache) { return cache.match(url, { ignoreVary: true }); });
  }
  function offlinePage() { return fromCache(offline).then(function (page) { return page || Response.error(); }); }

  self.addEventListener("fetch", function (event) {
    var request = event.request, url = new URL(request.url);
    if (url.origin !== self.location.origin) { return; }
    if (request.method === "POST" && request.mode === "navigate") {
      // A post of the form that found no connection: back to the form, which has the entries in
      // its draft and keeps a scored game for when the phone is back online. Any other post
      // (start a table, save a game): the offline page; the page posted from is still in the history.
      var body = request.clone();
      event.respondWith(fetch(request).catch(function () {
        if (url.origin + url.pathname !== form) { return offlinePage(); }
        return body.formData().then(function (data) {
          var scored = (data.get("action") || "score") === "score";
          return Response.redirect(form + "?offline=" + (scored ? "score" : "kept"), 303);
        });
      }));
      return;
    }
    if (request.method !== "GET") { return; }
    if (kept[url.href]) {
      event.respondWith(fromCache(url.href).then(function (hit) { return hit || fetch(request); }));
    } else if (request.mode === "navigate" && isForm(url)) {
      var language = inLanguage(url);
      event.respondWith(fetch(request).then(function (response) {
        if (keepable(response)) {
          var copy = response.clone(), again = language && response.clone();
          event.waitUntil(caches.open(cacheName).then(function (cache) {
            return Promise.all([cache.put(form, copy), again && cache.put(language, again)]);
          }));
        }
        return response;
      }).catch(function () {
        return (language ? fromCache(language) : Promise.resolve(null)).then(function (page) {
          return page || fromCache(form);
        }).then(function (page) { return page || offlinePage(); });
      }));
    } else if (request.mode === "navigate") {
      event.respondWith(fetch(request).catch(offlinePage));
    }
  });
})();
