/* moetheory docs: an inline formula wider than its line gets a line of its own that scrolls
   sideways (MathJax 3 cannot break a formula across lines), so no page is wider than the
   window. Runs when MathJax has typeset the page, and again when the window is resized. */
(function () {
  "use strict";
  function mark() {
    document.querySelectorAll("div.body mjx-container:not([display])").forEach(function (m) {
      if (m.closest("table")) { return; }  // a table scrolls inside its own wrapper
      m.classList.remove("wide-inline");
      var line = m.parentElement.closest("p, li, dd, dt, blockquote, div");
      if (line && m.getBoundingClientRect().width > line.clientWidth) {
        m.classList.add("wide-inline");
      }
    });
  }
  var config = window.MathJax = window.MathJax || {};
  config.startup = config.startup || {};
  config.startup.pageReady = function () {
    return window.MathJax.startup.defaultPageReady().then(mark);
  };
  window.addEventListener("resize", function () {
    if (window.MathJax && window.MathJax.startup && window.MathJax.startup.document) { mark(); }
  });
})();
