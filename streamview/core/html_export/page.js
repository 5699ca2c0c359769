// streamview's exported page: a call's detail is laid out from the page's JSON island
// when the call is first opened, and the search box hides the blocks that do not match. Every
// string from the run is set as textContent, never parsed as HTML.
(function () {
  "use strict";

  function el(tag, cls, content) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (content !== undefined && content !== null) node.textContent = String(content);
    return node;
  }

  function lineClass(line) {
    if (line.startsWith("+++") || line.startsWith("---") || line.startsWith("diff ")) return "file";
    if (line.startsWith("@@")) return "hunk";
    if (line.startsWith("+")) return "add";
    if (line.startsWith("-")) return "del";
    return "";
  }

  function section(part) {
    const box = el("div", "section");
    box.appendChild(el("div", "stitle", part.t));
    if (part.k === "fields") {
      const table = el("table", "fields");
      for (const row of part.v) {
        const tr = el("tr");
        tr.appendChild(el("th", "", row[0]));
        tr.appendChild(el("td", "", row[1]));
        table.appendChild(tr);
      }
      box.appendChild(table);
    } else if (part.k === "diff") {
      const pre = el("pre", "diff");
      for (const line of String(part.v).split("\n")) {
        pre.appendChild(el("span", lineClass(line), line || " "));
      }
      box.appendChild(pre);
    } else if (part.k === "note") {
      box.appendChild(el("p", "note", part.v));
    } else {
      box.appendChild(el("pre", part.k, part.v));
    }
    return box;
  }

  const CHUNK = 64; // calls per island, as the exporter writes them
  const islands = new Map();

  function sections(call) {
    const n = Number(call.dataset.n);
    const k = Math.floor(n / CHUNK);
    if (!islands.has(k)) {
      let parsed = [];
      try {
        parsed = JSON.parse(document.getElementById("c" + k).textContent);
      } catch (error) {
        parsed = [];
      }
      islands.set(k, parsed);
    }
    return islands.get(k)[n % CHUNK] || [
      { t: "detail", k: "note", v: "this call's detail could not be read" },
    ];
  }

  function render(call) {
    if (call.dataset.shown) return;
    call.dataset.shown = "1";
    const box = call.querySelector(".detail");
    for (const part of sections(call)) box.appendChild(section(part));
  }

  document.addEventListener(
    "toggle",
    function (event) {
      const node = event.target;
      if (node.classList && node.classList.contains("call") && node.open) render(node);
    },
    true
  );

  const input = document.getElementById("find");
  const found = document.getElementById("found");
  const blocks = Array.from(document.querySelectorAll(".block"));
  let timer = 0;

  function haystack(block) {
    if (block._hay === undefined) {
      let words;
      if (block.classList.contains("call")) {
        words = [block.querySelector("summary").textContent];
        for (const part of sections(block)) {
          words.push(part.t);
          if (part.k === "fields") for (const row of part.v) words.push(row[0], row[1]);
          else words.push(String(part.v));
        }
      } else {
        words = [block.textContent];
      }
      block._hay = words.join("\n").toLowerCase();
    }
    return block._hay;
  }

  function search() {
    const query = input.value.trim().toLowerCase();
    let hits = 0;
    for (const block of blocks) {
      const hit = !query || haystack(block).includes(query);
      block.hidden = !hit;
      if (hit && query) hits++;
    }
    document.body.classList.toggle("searching", !!query);
    found.textContent = query ? hits.toLocaleString() + " of " + blocks.length.toLocaleString() : "";
  }

  input.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(search, 150);
  });
  input.addEventListener("keydown", function (event) {
    if (event.key === "Enter") {
      clearTimeout(timer);
      search();
    }
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "/" && document.activeElement !== input) {
      event.preventDefault();
      input.focus();
    }
  });
})();
