// A table's stream, written once for every page that watches a table (the seat page, the
// table's page, the check page, the locked table and the big screen: table.js, screen.js).
// Socket.IO 5 over Engine.IO 4, spoken by the browser's own WebSocket: the server is
// Flask-SocketIO (scorekeeper/web/tables/stream.py), WebSocket only, one namespace.
//
// Why not socket.io-client, the well-kept client: its browser build (4.8) is 47 KB minified,
// about 14 KB sent compressed, nearly twice table.js, stream.js and kingdom.js together, and
// most of it is what these pages never use (long-polling and its upgrade, namespaces,
// binary packets, its own reconnection manager that knows nothing of the page's offline
// notice); the pages have no build step to cut it down. What they use is a few frames:
// open ("0"), ping ("2") and pong ("3"), connect ("40"), events ("42"), acknowledgements
// ("42<id>" out, "43<id>" back), a refusal ("44").
//
// var stream = TableStream({ ticket: …, lang: …, version: … }, { connected: fn, dropped: fn(lost), late: fn(late) });
//   (the first argument may be a function giving it at each connection: the version shown then)
//   stream.on("table", fn)          an event pushed to the page
//   stream.emit(event, data, ack)   sent at once if watching (true), else false; ack(answer)
//                                   gets the server's acknowledgement, or null when none came
//                                   in time or the stream went meanwhile
//   stream.isOpen(), stream.now()   watching?; reconnect at once (a page shown again)
//   stream.stop()                   the page is leaving: closed, never reopened
// connected: once per (re)connection, watching the table (catch up then); dropped(lost, waited): the
// stream gone (refused or cut: reopened a moment later), lost = said by its silence or the browser's
// offline event (no connection); waited = not watching OPEN_LIMIT ms after asking (the asking goes on);
// late(true): the server's beats stopped (they come every few seconds the way changes come, through
// Redis, when there is one): changes are not reaching the page though its stream is open; late(false):
// they came back (what was missed meanwhile is the page's to ask).
// A stream gone is let go at once (a dead network's close can take minutes) and reopened
// after 1 s, 2 s, 4 s… up to 30 s (back to 1 s once a stream has held for 10 s); at once when
// the phone is back online or the page shown.
(function () {
  "use strict";
  if (!window.WebSocket) { return; }
  // An answer to an event awaited this long at most; a stream cut again within STEADY ms of
  // watching (a proxy that cuts every stream) keeps backing off instead of retrying every second.
  // Not watching OPEN_LIMIT ms after asking (a WebSocket that neither opens nor fails: a proxy
  // holding it), the page is told the stream is gone (dropped) while the asking goes on.
  var ACK_LIMIT = 10000, STEADY = 10000, OPEN_LIMIT = 2000;

  window.TableStream = function (auth, when) {
    var socket = null, open = false, stopped = false, wait = 1000, retry = null, watchdog = null, steady = null;
    var handlers = {}, acks = {}, nextAck = 1, silence = null, late = false, opening = null;

    function connect() {
      clearTimeout(retry);
      if (socket || stopped) { return; }
      var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
      try {
        socket = new WebSocket(scheme + window.location.host + "/socket.io/?EIO=4&transport=websocket");
      } catch (e) { drop(false); return; }
      clearTimeout(opening);
      opening = setTimeout(function () { if (!open && !stopped) { when.dropped(false, true); } }, OPEN_LIMIT);
      var beat = 0;
      function alive() {  // the server pings every interval; silent longer than that and its timeout: lost
        clearTimeout(watchdog);
        watchdog = setTimeout(function () { drop(true); }, beat);
      }
      socket.onmessage = function (message) {
        var data = message.data, kind = data.slice(0, 2);
        if (data.charAt(0) === "0") {  // Engine.IO open: ask to watch the table
          var handshake = JSON.parse(data.slice(1));
          beat = handshake.pingInterval + handshake.pingTimeout;
          alive();
          socket.send("40" + JSON.stringify(typeof auth === "function" ? auth() : auth));
        } else if (data === "2") {
          socket.send("3");
          alive();
        } else if (kind === "40") {  // watching
          open = true;
          clearTimeout(opening);
          steady = setTimeout(function () { wait = 1000; }, STEADY);  // held a while: quick retries again
          when.connected();
        } else if (kind === "42") {
          var event = JSON.parse(data.slice(2));
          if (event[0] === "beat") { beatHeard(event[1]); } else if (handlers[event[0]]) { handlers[event[0]](event[1]); }
        } else if (kind === "43") {  // an acknowledgement: 43<id>[answer]
          var at = data.indexOf("[");
          settle(data.slice(2, at), JSON.parse(data.slice(at))[0]);
        } else if (kind === "44" || kind === "41") {  // refused (an old page's ticket), or let go: asked slowly
          drop(false);
        }
      };
      socket.onclose = function () { drop(false); };
    }
    // A beat every *every* s (the first as the stream opens): silent for two of them and half a
    // second more, changes are not reaching the page.
    function beatHeard(every) {
      clearTimeout(silence);
      silence = setTimeout(function () { late = true; if (when.late) { when.late(true); } }, every * 2000 + 500);
      if (late) { late = false; if (when.late) { when.late(false); } }
    }
    function settle(id, answer) {
      var waiting = acks[id];
      if (!waiting) { return; }  // answered after its time: the page went on without it
      delete acks[id];
      clearTimeout(waiting.timer);
      waiting.ack(answer);
    }
    function quiet() {  // the socket let go, every acknowledgement still awaited answered null
      clearTimeout(watchdog);
      clearTimeout(opening);
      clearTimeout(silence);  // (a page without its stream asks anyway; a new one beats anew)
      late = false;
      clearTimeout(steady);
      if (socket) { socket.onclose = socket.onmessage = null; socket.close(); }
      socket = null;
      open = false;
      Object.keys(acks).forEach(function (id) { settle(id, null); });
    }
    function drop(lost) {
      quiet();
      if (stopped) { return; }
      clearTimeout(retry);
      retry = setTimeout(connect, wait);
      wait = Math.min(wait * 2, 30000);
      when.dropped(lost);
    }
    function now() {
      if (!socket && !stopped) { wait = 1000; connect(); }
    }
    function stop() {
      stopped = true;
      clearTimeout(retry);
      quiet();
    }

    window.addEventListener("online", now);
    window.addEventListener("offline", function () { drop(true); });
    document.addEventListener("visibilitychange", function () { if (!document.hidden) { now(); } });
    window.addEventListener("pagehide", stop);
    window.addEventListener("pageshow", function (e) { if (e.persisted) { stopped = false; now(); } });
    connect();

    return {
      on: function (event, fn) { handlers[event] = fn; },
      emit: function (event, data, ack) {
        if (!open) { return false; }
        var id = "";
        if (ack) {
          id = String(nextAck++);
          acks[id] = { ack: ack, timer: setTimeout(function () { settle(id, null); }, ACK_LIMIT) };
        }
        socket.send("42" + id + JSON.stringify([event, data]));
        return true;
      },
      isOpen: function () { return open; },
      now: now,
      stop: stop
    };
  };
})();
