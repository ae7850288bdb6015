/* The experts' workbench: search, filters (status, band, sub-theme, picked only), sort, related
   papers, and picks kept in this browser (per venue), downloaded as CSV or BibTeX.
   Plain DOM, no network: the page's Content-Security-Policy allows this script by its hash and
   forbids every connection.  Every string from the page is handled as text (textContent,
   value), never as markup. */
(function () {
  "use strict";
  var root = document.documentElement;
  var body = document.body;
  var venue = body.getAttribute("data-venue") || "";
  var quota = parseInt(body.getAttribute("data-quota"), 10) || 5;
  var year = /^\d{4}$/.test(body.getAttribute("data-year") || "") ? body.getAttribute("data-year") : "";
  // one key per venue: two venues' pages (same origin under file://) never share their picks
  var storeKey = "paperrank-picks:" + venue;
  // one character a CSV cell or the page could misread is refused (the import refuses it too)
  var NAME_RE = /^[\p{L}\p{N}][\p{L}\p{N}\p{M} .'_()-]{0,79}$/u;
  var rows = Array.prototype.slice.call(document.querySelectorAll("table.papers.sortable tr[data-paper-id]"));
  var search = document.getElementById("paper-search");
  var band = document.getElementById("band-filter");
  var statusFilter = document.getElementById("status-filter");
  var pickedOnly = document.getElementById("picked-only");
  var nameBox = document.getElementById("expert-name");
  var nameError = document.getElementById("expert-name-error");
  var download = document.getElementById("download-picks");
  var downloadBib = document.getElementById("download-bibtex");
  var status = document.getElementById("search-status");
  var total = document.getElementById("pick-total");
  var sections = Array.prototype.slice.call(document.querySelectorAll("section.category"));
  var rowById = {};
  rows.forEach(function (tr) { rowById[tr.getAttribute("data-paper-id")] = tr; });

  root.classList.add("js");
  document.getElementById("tools").hidden = false;

  // each number of a details panel gets its meaning (the glossary's) as its tooltip
  var meanings = {};
  document.querySelectorAll("#glossary dd[data-k]").forEach(function (dd) {
    var dt = dd.previousElementSibling;
    var columns = dt && dt.querySelector("code") ? " (" + dt.querySelector("code").textContent + ")" : "";
    meanings[dd.getAttribute("data-k")] = dd.textContent + columns;
  });
  document.querySelectorAll(".numbers-row dt[data-k]").forEach(function (dt) {
    var meaning = meanings[dt.getAttribute("data-k")];
    if (meaning) { dt.title = meaning; }
  });

  // -- picks, kept in localStorage ------------------------------------------------------------
  function load() {
    try {
      var saved = JSON.parse(window.localStorage.getItem(storeKey) || "{}");
      var picks = saved.picks && typeof saved.picks === "object" ? saved.picks : {};
      return { name: String(saved.name || ""), picks: picks };
    } catch (error) {
      return { name: "", picks: {} };
    }
  }
  var state = load();
  function save() {
    try { window.localStorage.setItem(storeKey, JSON.stringify(state)); } catch (error) { /* private mode */ }
  }
  function pickKey(category, paperId) { return category + "\u0000" + paperId; }
  function isPicked(category, paperId) { return Object.prototype.hasOwnProperty.call(state.picks, pickKey(category, paperId)); }

  // -- the ranked papers no list shows, searched by title, authors and keywords ---------------
  // Their index rides in a data attribute as base64 gzip JSON; the browser inflates it (no
  // request is made). Each entry: [paper_id, category, rank, title, authors, link, band,
  // status, keywords]; a link "" is the forum prefix + paper_id, null none.
  var more = document.getElementById("more-matches");
  var MORE_SHOWN = 50;
  var shownSignature = "";
  var unlisted = [];
  var unlistedText = [];
  var unlistedById = {};
  if (more && typeof DecompressionStream === "function") {
    var packed = atob(more.getAttribute("data-index"));
    var bytes = new Uint8Array(packed.length);
    for (var b = 0; b < packed.length; b++) { bytes[b] = packed.charCodeAt(b); }
    new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip")))
      .json().then(function (index) {
        unlisted = index;
        unlistedText = index.map(function (p) { return (p[0] + " " + p[3] + " " + p[4] + " " + (p[8] || "")).toLowerCase(); });
        index.forEach(function (p) { unlistedById[p[0]] = p; });
        applyFilter();
        listPicks();
      });
  }
  function unlistedLink(p) { return p[5] === "" ? more.getAttribute("data-forum-prefix") + p[0] : p[5]; }

  // what the downloads and "your picks" say about a paper: from its row, its index entry, or
  // what was kept when it was picked
  function paperInfo(paperId, kept) {
    var tr = rowById[paperId];
    if (tr) {
      var title = tr.querySelector(".title");
      var authors = tr.parentNode.querySelector(".pane .authors");
      var rank = tr.querySelector("td.rank");
      return { title: title.textContent, link: title.tagName === "A" ? title.getAttribute("href") : "",
               authors: authors ? authors.textContent : "", rank: rank ? rank.textContent : "" };
    }
    var p = unlistedById[paperId];
    if (p) { return { title: p[3], link: unlistedLink(p) || "", authors: p[4], rank: String(p[2]) }; }
    kept = kept || {};
    return { title: String(kept.title || paperId), link: String(kept.link || ""),
             authors: String(kept.authors || ""), rank: "" };
  }

  function pickBox(category, paperId, label) {
    var box = document.createElement("input");
    box.type = "checkbox";
    box.className = "pick";
    box.checked = isPicked(category, paperId);
    box.setAttribute("aria-label", label);
    box.setAttribute("data-category", category);
    box.setAttribute("data-paper-id", paperId);
    return box;
  }

  function noteBox(category, paperId, label) {
    var note = document.createElement("textarea");
    note.className = "pick-note";
    note.rows = 2;
    note.placeholder = "note on your pick (optional)";
    note.setAttribute("aria-label", label);
    var saved = state.picks[pickKey(category, paperId)];
    note.value = saved ? saved.note || "" : "";
    note.hidden = !saved;
    note.addEventListener("input", function () {
      var pick = state.picks[pickKey(category, paperId)];
      if (pick) { pick.note = note.value; save(); }
    });
    return note;
  }

  function showMore(terms, filters) {
    if (!more) { return 0; }
    var found = [];
    var wanted = terms.length > 0 || filters.picked;
    for (var i = 0; wanted && i < unlisted.length; i++) {
      var p = unlisted[i];
      var ok = (filters.band === "all" || p[6] === filters.band)
        && (filters.status === "all" || p[7] === filters.status)
        && (!filters.picked || isPicked(p[1], p[0]));
      for (var t = 0; ok && t < terms.length; t++) { ok = unlistedText[i].indexOf(terms[t]) !== -1; }
      if (ok) { found.push(p); }
    }
    var list = document.getElementById("more-matches-list");
    // the same matches as the last keystroke: the list stands (its boxes and notes are live)
    var signature = found.length + ":" + found.slice(0, MORE_SHOWN).map(function (p) { return p[0]; }).join(" ");
    if (signature === shownSignature) { return found.length; }
    shownSignature = signature;
    list.textContent = "";
    var items = document.createDocumentFragment();
    found.slice(0, MORE_SHOWN).forEach(function (p) {
      var item = document.createElement("li");
      item.setAttribute("data-paper-id", p[0]);
      var label = document.createElement("label");
      var box = pickBox(p[1], p[0], "Pick #" + p[2] + " " + p[3].slice(0, 80) + " for " + p[1]);
      label.appendChild(box);
      label.appendChild(document.createTextNode(" Pick"));
      item.appendChild(label);
      var where = document.createElement("span");
      where.className = "where";
      where.textContent = p[1] + " \u00b7 #" + p[2] + (p[7] ? " \u00b7 " + p[7] : "") + (p[6] ? " \u00b7 " + p[6] : "") + " ";
      item.appendChild(where);
      var link = unlistedLink(p);
      var title = document.createElement(/^https?:\/\//.test(link || "") ? "a" : "span");
      if (title.tagName === "A") { title.href = link; title.rel = "noopener noreferrer"; }
      title.className = "title";
      title.textContent = p[3];
      item.appendChild(title);
      if (p[4]) {
        var authors = document.createElement("span");
        authors.className = "authors";
        authors.textContent = " \u2014 " + p[4];
        item.appendChild(authors);
      }
      // a note box only for a pick (fifty text boxes a keystroke would cost the search its speed)
      var note = null;
      function addNote() {
        if (!note) {
          note = noteBox(p[1], p[0], "Note on #" + p[2] + " " + p[3].slice(0, 80));
          item.appendChild(note);
        }
        note.hidden = !box.checked;
      }
      if (box.checked) { addNote(); }
      box.addEventListener("change", function () {
        setPick(p[1], p[0], box.checked, note);
        addNote();
      });
      items.appendChild(item);
    });
    list.appendChild(items);
    var rest = document.getElementById("more-matches-more");
    rest.hidden = found.length <= MORE_SHOWN;
    rest.textContent = (found.length - MORE_SHOWN) + " more: narrow the search to see them";
    more.hidden = found.length === 0;
    return found.length;
  }

  // -- search and filters -----------------------------------------------------------------------
  var haystack = rows.map(function (tr) {
    var parts = tr.parentNode.querySelectorAll(".title, .keywords, .authors, .abstract-text");
    var text = tr.getAttribute("data-paper-id");
    for (var i = 0; i < parts.length; i++) { text += " " + parts[i].textContent; }
    return text.toLowerCase();
  });
  var themes = {};  // category -> the sub-theme its chips show (none: all)

  function setHidden(tr, hide) {
    if (tr.hidden !== hide) {
      tr.hidden = hide;
      tr.parentNode.hidden = hide;
    }
  }

  function applyFilter() {
    var terms = search.value.toLowerCase().split(/\s+/).filter(Boolean);
    var filters = { band: band.value, status: statusFilter.value, picked: pickedOnly.checked };
    var shown = 0;
    for (var i = 0; i < rows.length; i++) {
      var tr = rows[i];
      var category = tr.getAttribute("data-category");
      var theme = themes[category];
      var ok = (filters.band === "all" || tr.getAttribute("data-band") === filters.band)
        && (filters.status === "all" || tr.getAttribute("data-status") === filters.status)
        && (!filters.picked || isPicked(category, tr.getAttribute("data-paper-id")))
        && (!theme || tr.getAttribute("data-subtheme") === theme);
      for (var t = 0; ok && t < terms.length; t++) { ok = haystack[i].indexOf(terms[t]) !== -1; }
      setHidden(tr, !ok);
      if (ok) { shown++; }
    }
    sections.forEach(function (section) {
      var visible = section.querySelector("tr[data-paper-id]:not([hidden])") !== null;
      section.querySelector(".no-match").hidden = visible;
    });
    var below = showMore(terms, filters);
    var filtered = terms.length || filters.band !== "all" || filters.status !== "all" || filters.picked
      || Object.keys(themes).some(function (k) { return themes[k]; });
    status.textContent = filtered
      ? shown + " of " + rows.length + " papers match" + (below ? ", and " + below + " below the lists" : "")
      : rows.length + " papers listed";
  }
  search.addEventListener("input", applyFilter);
  band.addEventListener("change", applyFilter);
  statusFilter.addEventListener("change", applyFilter);
  pickedOnly.addEventListener("change", applyFilter);

  // sub-theme chips: one at a time per category; pressed again, the whole list
  document.querySelectorAll("button.subtheme").forEach(function (chip) {
    chip.addEventListener("click", function () {
      var section = chip.closest("section.category");
      var category = section.getAttribute("data-category");
      var key = chip.getAttribute("data-subtheme");
      themes[category] = themes[category] === key ? "" : key;
      section.querySelectorAll("button.subtheme").forEach(function (other) {
        other.setAttribute("aria-pressed", String(other.getAttribute("data-subtheme") === themes[category]));
      });
      applyFilter();
    });
  });

  function clearFilters() {
    search.value = "";
    band.value = "all";
    statusFilter.value = "all";
    pickedOnly.checked = false;
    themes = {};
    document.querySelectorAll("button.subtheme").forEach(function (chip) { chip.setAttribute("aria-pressed", "false"); });
    applyFilter();
  }

  function flash(element) {
    element.classList.remove("flash");
    void element.offsetWidth;
    element.classList.add("flash");
  }

  // -- related papers and a map's dots: a click jumps to the paper's row, or shows it among the
  // search results ----------------------------------------------------------------------------
  document.addEventListener("click", function (event) {
    var link = event.target.closest ? event.target.closest("a.related, .paper-map circle[data-p]") : null;
    if (!link) { return; }
    var paperId = link.getAttribute("data-paper-id") || link.getAttribute("data-p");
    var tr = rowById[paperId];
    if (tr) {
      event.preventDefault();
      if (tr.hidden) { clearFilters(); }
      tr.scrollIntoView({ block: "center" });
      var title = tr.querySelector("a.title") || tr.querySelector("input.pick");
      title.focus({ preventScroll: true });
      flash(tr);
    } else if (unlistedById[paperId]) {
      event.preventDefault();
      clearFilters();
      search.value = paperId;
      applyFilter();
      more.scrollIntoView({ block: "nearest" });
      var item = document.querySelector("#more-matches-list li");
      if (item) { flash(item); }
    }
  });

  // -- sort: every column header of a category table is a button, the whole cell ----------------
  function sortValue(tr, column) {
    var cell = tr.cells[column];
    if (cell.classList.contains("pick-cell")) { return cell.querySelector("input.pick").checked ? 0 : 1; }
    var v = cell.getAttribute("data-v");
    if (v === null) { v = cell.textContent.trim(); }
    var n = parseFloat(v);
    return isNaN(n) || !/^-?[\d.]/.test(v) ? v.toLowerCase() : n;
  }
  function compare(a, b) {
    if (typeof a === typeof b) { return a < b ? -1 : a > b ? 1 : 0; }
    return typeof a === "number" ? -1 : 1;
  }
  document.querySelectorAll("table.papers.sortable").forEach(function (table) {
    var headers = table.querySelectorAll("thead th");
    headers.forEach(function (th, column) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "sort";
      while (th.firstChild) { button.appendChild(th.firstChild); }
      th.appendChild(button);
      // the whole cell sorts, not only its words (a header row is as tall as its tallest cell)
      th.addEventListener("click", function (event) { if (event.target === th) { button.click(); } });
      button.addEventListener("click", function () {
        var ascending = th.getAttribute("aria-sort") !== "ascending";
        headers.forEach(function (other) { other.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
        var groups = Array.prototype.slice.call(table.tBodies).map(function (group, index) {
          return { group: group, key: sortValue(group.rows[0], column), index: index };
        });
        groups.sort(function (a, b) {
          return (ascending ? 1 : -1) * compare(a.key, b.key) || a.index - b.index;
        });
        groups.forEach(function (item) { table.appendChild(item.group); });
        table.classList.add("resorted");
      });
    });
  });

  // -- ticking, counting, the quota ---------------------------------------------------------------
  function setPick(category, paperId, on, note) {
    var key = pickKey(category, paperId);
    if (on) {
      var info = paperInfo(paperId);
      state.picks[key] = { paper_id: paperId, category: category, note: note ? note.value : "",
                           title: info.title, link: info.link, authors: info.authors };
    } else {
      delete state.picks[key];
    }
    save();
    countPicks();
  }

  function countPicks() {
    var perCategory = {};
    var n = 0;
    Object.keys(state.picks).forEach(function (k) {
      var category = state.picks[k].category;
      perCategory[category] = (perCategory[category] || 0) + 1;
      n++;
    });
    document.querySelectorAll(".pick-count").forEach(function (span) {
      span.textContent = String(perCategory[span.getAttribute("data-category")] || 0);
    });
    document.querySelectorAll(".quota-note").forEach(function (span) {
      var k = perCategory[span.getAttribute("data-category")] || 0;
      span.textContent = k > quota ? " \u2014 " + (k - quota) + " over your quota of " + quota
        : k === quota ? " \u2014 quota reached" : "";
    });
    var over = Object.keys(perCategory).filter(function (c) { return perCategory[c] > quota; }).length;
    total.textContent = n + (n === 1 ? " paper" : " papers") + " picked (about " + quota + " a category)"
      + (over ? "; " + over + (over === 1 ? " category is" : " categories are") + " over it" : "");
    checkName();
    listPicks();
    document.dispatchEvent(new CustomEvent("paperrank:picks", { detail: state.picks }));  // the maps
  }

  function listPicks() {
    var list = document.getElementById("my-picks");
    if (!list) { return; }
    list.textContent = "";
    var keys = Object.keys(state.picks).sort();
    keys.forEach(function (k) {
      var pick = state.picks[k];
      var info = paperInfo(pick.paper_id, pick);
      var item = document.createElement("li");
      item.setAttribute("data-paper-id", pick.paper_id);
      var where = document.createElement("span");
      where.className = "where";
      where.textContent = pick.category + (info.rank ? " \u00b7 #" + info.rank : "") + " ";
      item.appendChild(where);
      var title = document.createElement("span");
      title.className = "title";
      title.textContent = info.title;
      item.appendChild(title);
      if (pick.note) {
        var note = document.createElement("span");
        note.className = "where";
        note.textContent = " \u2014 " + pick.note;
        item.appendChild(note);
      }
      list.appendChild(item);
    });
    document.getElementById("my-picks-none").hidden = keys.length > 0;
  }

  function checkName() {
    var name = nameBox.value.trim();
    var valid = NAME_RE.test(name);
    var any = Object.keys(state.picks).length > 0;
    nameError.hidden = valid || name === "";
    nameBox.setAttribute("aria-invalid", valid || name === "" ? "false" : "true");
    download.disabled = !valid || !any;
    downloadBib.disabled = !any;
    return valid;
  }

  rows.forEach(function (tr) {
    var box = tr.querySelector("input.pick");
    var note = tr.parentNode.querySelector("textarea.pick-note");
    var category = tr.getAttribute("data-category");
    var paperId = tr.getAttribute("data-paper-id");
    var saved = state.picks[pickKey(category, paperId)];
    if (saved) {
      box.checked = true;
      note.value = saved.note || "";
    }
    note.hidden = !box.checked;
    tr.classList.toggle("picked", box.checked);
    box.addEventListener("change", function () {
      setPick(category, paperId, box.checked, note);
      note.hidden = !box.checked;
      tr.classList.toggle("picked", box.checked);
      if (pickedOnly.checked) { applyFilter(); }
    });
    note.addEventListener("input", function () {
      var pick = state.picks[pickKey(category, paperId)];
      if (pick) { pick.note = note.value; save(); listPicks(); }
    });
  });
  nameBox.value = state.name;
  nameBox.addEventListener("input", function () {
    state.name = nameBox.value.trim();
    save();
    checkName();
  });

  function saveFile(text, type, name) {
    var blob = new Blob([text], { type: type });
    var link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = name;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(function () { URL.revokeObjectURL(link.href); }, 0);
  }
  function fileStem() {
    var name = nameBox.value.trim();
    return (venue + (NAME_RE.test(name) ? "-" + name : "")).replace(/[^\p{L}\p{N}_-]+/gu, "_");
  }

  // -- the CSV: seeds/expert_selections.csv's columns, the venue first -----------------------------
  function cell(value) {
    var text = String(value).replace(/\r\n?/g, "\n");
    // a spreadsheet would run a cell that starts like a formula: make it text
    if (/^[=+\-@\t\r]/.test(text)) { text = "'" + text; }
    return /[",\n]/.test(text) ? '"' + text.replace(/"/g, '""') + '"' : text;
  }
  download.addEventListener("click", function () {
    if (!checkName()) { nameBox.focus(); return; }
    var name = nameBox.value.trim();
    var lines = ["venue,paper_id,category,selected_by,note"];
    Object.keys(state.picks).sort().forEach(function (k) {
      var pick = state.picks[k];
      lines.push([venue, pick.paper_id, pick.category, name, pick.note || ""].map(cell).join(","));
    });
    saveFile(lines.join("\n") + "\n", "text/csv;charset=utf-8", "expert_selections-" + fileStem() + ".csv");
  });

  // -- the BibTeX: every character LaTeX or BibTeX reads as syntax is written as a text command,
  // so a field is plain text whatever it holds (no brace closes it, no command runs) -----------
  var BIB = { "\\": "\\textbackslash{}", "{": "\\textbraceleft{}", "}": "\\textbraceright{}",
              "%": "\\%", "#": "\\#", "&": "\\&", "~": "\\textasciitilde{}", "^": "\\textasciicircum{}",
              "$": "\\$", "_": "\\_", "<": "\\textless{}", ">": "\\textgreater{}", "|": "\\textbar{}" };
  function bibText(value) {
    return String(value).replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ").replace(/\s+/g, " ").trim()
      .replace(/[\\{}%#&~^$_<>|]/g, function (c) { return BIB[c]; });
  }
  function bibUrl(url) {
    if (!/^https?:\/\//.test(url)) { return ""; }
    var encoder = new TextEncoder();
    return url.replace(/[^A-Za-z0-9\-.:\/?=&]/gu, function (c) {
      return Array.prototype.map.call(encoder.encode(c), function (byte) {
        return "%" + (byte < 16 ? "0" : "") + byte.toString(16).toUpperCase();
      }).join("");
    });
  }
  downloadBib.addEventListener("click", function () {
    var used = {};
    var entries = [];
    Object.keys(state.picks).sort().forEach(function (k) {
      var pick = state.picks[k];
      var info = paperInfo(pick.paper_id, pick);
      var key = "paperrank-" + pick.paper_id.replace(/[^A-Za-z0-9_-]+/g, "-");
      var unique = key;
      for (var n = 2; used[unique]; n++) { unique = key + "-" + n; }
      used[unique] = true;
      var fields = [["title", bibText(info.title)]];
      var authors = info.authors.split(";").map(function (a) { return bibText(a); }).filter(Boolean);
      if (authors.length) { fields.push(["author", authors.join(" and ")]); }
      fields.push(["booktitle", bibText(venue)]);
      if (year) { fields.push(["year", year]); }
      var url = bibUrl(info.link);
      if (url) { fields.push(["url", url]); }
      if (pick.note) { fields.push(["note", bibText(pick.note)]); }
      entries.push("@inproceedings{" + unique + ",\n" + fields.map(function (f) {
        return "  " + f[0] + " = {" + f[1] + "}";
      }).join(",\n") + "\n}\n");
    });
    saveFile(entries.join("\n"), "application/x-bibtex;charset=utf-8", "expert_selections-" + fileStem() + ".bib");
  });

  applyFilter();
  countPicks();
})();
