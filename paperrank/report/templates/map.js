/* The maps beside the picks: a picked paper's dot is filled, each category counts the sub-themes
   its picks cover, and a notice (never a block) names two picks that are near-duplicates: each in
   the other's related papers above the page's similarity setting (the pairs are the section's
   data-near, drawn from marts.paper_related). The workbench announces the picks as they change
   (the event "paperrank:picks"); a click or Enter on a dot is the workbench's too (it follows the
   dot like a related paper's link). Every string is set as text. */
(function () {
  "use strict";
  var has = function (object, key) { return Object.prototype.hasOwnProperty.call(object, key); };
  var maps = {};  // category -> its dots by paper id, near pairs, coverage counter and notice
  document.querySelectorAll(".map-block[data-near]").forEach(function (block) {
    var dots = {};
    block.querySelectorAll("circle[data-p]").forEach(function (dot) { dots[dot.getAttribute("data-p")] = dot; });
    var pairs = [];
    try { pairs = JSON.parse(block.getAttribute("data-near")); } catch (error) { pairs = []; }
    maps[block.getAttribute("data-category")] = { dots: dots, pairs: pairs, coverage: null, note: null };
  });
  document.querySelectorAll(".coverage[data-category], .near-note[data-category]").forEach(function (element) {
    var map = maps[element.getAttribute("data-category")];
    if (map) { map[element.classList.contains("coverage") ? "coverage" : "note"] = element; }
  });

  // the keyboard: Tab enters a map once, at its best-ranked dot, and the arrow keys move along
  // its top N in rank order (thirty tab stops a map would stand between a reader and the list)
  document.querySelectorAll(".map-block .paper-map").forEach(function (svg) {
    var ringed = Array.prototype.slice.call(svg.querySelectorAll("circle[tabindex]"));
    var rank = function (dot) { return parseInt(dot.textContent.replace(/^#/, ""), 10) || 0; };
    ringed.sort(function (a, b) { return rank(a) - rank(b); });
    ringed.forEach(function (dot, i) { dot.setAttribute("tabindex", i === 0 ? "0" : "-1"); });
    svg.addEventListener("keydown", function (event) {
      var at = ringed.indexOf(event.target);
      var step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
      if (at < 0 || !step) { return; }
      event.preventDefault();
      var next = ringed[(at + step + ringed.length) % ringed.length];
      ringed[at].setAttribute("tabindex", "-1");
      next.setAttribute("tabindex", "0");
      next.focus();
    });
  });

  // a dot takes Enter (and Space) as a click: the workbench jumps to its paper
  document.addEventListener("keydown", function (event) {
    var dot = event.target;
    if ((event.key === "Enter" || event.key === " ") && dot.matches && dot.matches(".paper-map circle[data-p]")) {
      event.preventDefault();
      dot.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    }
  });

  function quoted(title) { return "\u201c" + title + "\u201d"; }

  document.addEventListener("paperrank:picks", function (event) {
    var picks = event.detail || {};
    var chosen = {};  // category -> {paper id: title}
    Object.keys(picks).forEach(function (key) {
      var pick = picks[key];
      (chosen[pick.category] = chosen[pick.category] || {})[pick.paper_id] = String(pick.title || pick.paper_id);
    });
    Object.keys(maps).forEach(function (category) {
      var map = maps[category];
      var mine = chosen[category] || {};
      var covered = {};
      Object.keys(map.dots).forEach(function (paperId) {
        var dot = map.dots[paperId];
        var on = has(mine, paperId);
        dot.classList.toggle("picked", on);
        var theme = dot.parentNode.getAttribute("data-s");
        if (on && theme) { covered[theme] = true; }
      });
      if (map.coverage) {
        map.coverage.textContent = "sub-themes covered: " + Object.keys(covered).length + " of "
          + map.coverage.getAttribute("data-total");
      }
      if (map.note) {
        var near = map.pairs.filter(function (pair) { return has(mine, pair[0]) && has(mine, pair[1]); });
        map.note.hidden = near.length === 0;
        map.note.textContent = near.length === 0 ? "" : "Near-duplicates among your picks: " + near.map(function (pair) {
          return quoted(mine[pair[0]]) + " and " + quoted(mine[pair[1]]) + " (similarity " + Number(pair[2]).toFixed(2) + ")";
        }).join("; ") + ". Each is among the other's closest papers; a notice only, both stay picked.";
      }
    });
  });
})();
