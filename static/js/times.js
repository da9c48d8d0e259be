// Saved times in the viewer's time zone: each <time class="local-time"> the server wrote in UTC
// ("30 Nov 2026, 17:35 UTC") is written again in the page's language and the phone's zone.
(function () {
  "use strict";
  // the page's language as the phone speaks it (en-GB: "2 Dec 2026"), else as the page names it
  var page = document.documentElement.lang, lang = (navigator.languages || []).filter(function (l) {
    return l.split("-")[0] === page;
  })[0] || page;
  var formats = {
    datetime: { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23" },
    time: { hour: "2-digit", minute: "2-digit", hourCycle: "h23" }
  };
  document.querySelectorAll("time.local-time").forEach(function (element) {
    var moment = new Date(element.getAttribute("datetime"));
    if (isNaN(moment.getTime())) { return; }
    element.title = element.textContent;  // the UTC time stays at hand
    element.textContent = moment.toLocaleString(lang, formats[element.dataset.show] || formats.datetime);
  });
})();
