package chat

import (
	"fmt"
	"html"
	"strings"
)

// cardsSection shows totals of the data set as KPI cards.
var cardsSection = section{
	css: `.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(10rem, 1fr)); gap: 0.75rem; }
.card { border: 1px solid var(--line); border-radius: 10px; padding: 0.75rem; }
.card strong { display: block; font-size: 1.6rem; font-variant-numeric: tabular-nums; }
`,
	html: fixed(`  <section data-kind="cards" aria-labelledby="cards-title">
    <h2 id="cards-title">Summary</h2>
    <div class="cards" id="cards"></div>
  </section>
`),
	js: fixed(`{
  const total = DATA.reduce((sum, row) => sum + row.value, 0);
  const cards = [
    ["Records", DATA.length],
    ["Total value", total],
    ["Average", DATA.length ? Math.round(total / DATA.length) : 0],
    ["Active", DATA.filter((row) => row.status === "active").length],
    ["Done", DATA.filter((row) => row.status === "done").length],
  ];
  const grid = document.getElementById("cards");
  for (const [label, value] of cards) {
    const card = document.createElement("div");
    card.className = "card";
    const number = document.createElement("strong");
    number.textContent = value.toLocaleString();
    const caption = document.createElement("span");
    caption.className = "muted";
    caption.textContent = label;
    card.append(number, caption);
    grid.append(card);
  }
}
`),
}

// chartSection draws the data on a canvas as bars or a line; up to 12
// records are drawn one by one, more are summed by category.
var chartSection = section{
	css: `#chart { width: 100%; height: 280px; display: block; }
`,
	html: func(a app) string {
		bar, line := "true", "false"
		if a.spec.chartLine {
			bar, line = line, bar
		}
		return fmt.Sprintf(`  <section data-kind="chart" aria-labelledby="chart-title">
    <h2 id="chart-title">Chart</h2>
    <div class="row" role="group" aria-label="Chart type">
      <button type="button" class="secondary" data-mode="bar" aria-pressed="%s">Bars</button>
      <button type="button" class="secondary" data-mode="line" aria-pressed="%s">Line</button>
    </div>
    <canvas id="chart" role="img" aria-label="Chart of the values"></canvas>
    <p id="chart-summary" class="muted"></p>
  </section>
`, bar, line)
	},
	js: func(a app) string {
		mode := "bar"
		if a.spec.chartLine {
			mode = "line"
		}
		return strings.Replace(chartJS, "__MODE__", mode, 1)
	},
}

// chartJS draws the chart; __MODE__ is the initial mode.
const chartJS = `{
  const canvas = document.getElementById("chart");
  const context = canvas.getContext("2d");
  const buttons = document.querySelectorAll("[data-mode]");
  let mode = "__MODE__";
  const sums = {};
  for (const row of DATA) sums[row.category] = (sums[row.category] || 0) + row.value;
  const points = DATA.length <= 12 ? DATA.map((row) => [row.name, row.value]) : Object.entries(sums);
  document.getElementById("chart-summary").textContent = points.map(([label, value]) => label + ": " + value).join(", ");
  const draw = () => {
    const ratio = window.devicePixelRatio || 1;
    const width = canvas.clientWidth;
    const height = canvas.clientHeight;
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    context.clearRect(0, 0, width, height);
    const style = getComputedStyle(document.documentElement);
    const accent = style.getPropertyValue("--accent").trim() || "#4f46e5";
    const ink = style.getPropertyValue("--fg").trim() || "#1c1d26";
    const pad = 32;
    const top = points.reduce((most, point) => Math.max(most, point[1]), 1);
    const step = (width - pad * 2) / Math.max(1, points.length);
    const x = (i) => pad + step * i + step / 2;
    const y = (value) => height - pad - (value / top) * (height - pad * 2);
    context.strokeStyle = ink;
    context.globalAlpha = 0.3;
    context.beginPath();
    context.moveTo(pad, height - pad);
    context.lineTo(width - pad, height - pad);
    context.stroke();
    context.globalAlpha = 1;
    context.font = "12px system-ui, sans-serif";
    context.textAlign = "center";
    points.forEach(([label, value], i) => {
      context.fillStyle = ink;
      context.fillText(String(label).slice(0, 12), x(i), height - pad + 16);
      if (mode === "bar") {
        context.fillStyle = accent;
        context.fillRect(x(i) - step * 0.35, y(value), step * 0.7, height - pad - y(value));
      }
    });
    if (mode === "line") {
      context.strokeStyle = accent;
      context.lineWidth = 2;
      context.beginPath();
      points.forEach(([, value], i) => (i === 0 ? context.moveTo(x(i), y(value)) : context.lineTo(x(i), y(value))));
      context.stroke();
    }
  };
  for (const button of buttons) {
    button.addEventListener("click", () => {
      mode = button.dataset.mode;
      for (const other of buttons) other.setAttribute("aria-pressed", String(other === button));
      draw();
    });
  }
  window.addEventListener("resize", draw);
  draw();
}
`

// listSection is a to-do list over the data set: add, check, remove, filter.
var listSection = section{
	css: `#todo-list { list-style: none; padding: 0; margin: 0.75rem 0; }
#todo-list li { display: flex; gap: 0.5rem; align-items: center; padding: 0.35rem 0; border-bottom: 1px solid var(--line); }
#todo-list li label { flex: 1; }
#todo-list li.done label { text-decoration: line-through; color: var(--muted); }
`,
	html: func(a app) string {
		noun := "item"
		if a.spec.noun != "" {
			noun = singular(a.spec.noun)
		}
		return fmt.Sprintf(`  <section data-kind="list" aria-labelledby="list-title">
    <h2 id="list-title">List</h2>
    <form id="todo-form" class="row">
      <label class="row">New %s <input id="todo-input" autocomplete="off" required></label>
      <button type="submit">Add</button>
    </form>
    <div class="row" role="group" aria-label="Filter">
      <button type="button" class="secondary" data-filter="all" aria-pressed="true">All</button>
      <button type="button" class="secondary" data-filter="active" aria-pressed="false">Active</button>
      <button type="button" class="secondary" data-filter="done" aria-pressed="false">Done</button>
    </div>
    <ul id="todo-list"></ul>
    <p id="todo-count" class="muted" aria-live="polite"></p>
  </section>
`, html.EscapeString(noun))
	},
	js: fixed(`{
  const items = DATA.map((row) => ({ id: row.id, text: row.name, done: row.status === "done" }));
  let nextId = items.length + 1;
  let filter = "all";
  const list = document.getElementById("todo-list");
  const input = document.getElementById("todo-input");
  const count = document.getElementById("todo-count");
  const filters = document.querySelectorAll("[data-filter]");
  const render = () => {
    const fragment = document.createDocumentFragment();
    for (const item of items) {
      if ((filter === "active" && item.done) || (filter === "done" && !item.done)) continue;
      const entry = document.createElement("li");
      entry.classList.toggle("done", item.done);
      const box = document.createElement("input");
      box.type = "checkbox";
      box.id = "todo-" + item.id;
      box.checked = item.done;
      box.addEventListener("change", () => { item.done = box.checked; render(); });
      const label = document.createElement("label");
      label.htmlFor = box.id;
      label.textContent = item.text;
      const remove = document.createElement("button");
      remove.type = "button";
      remove.className = "secondary";
      remove.textContent = "Remove";
      remove.setAttribute("aria-label", "Remove " + item.text);
      remove.addEventListener("click", () => { items.splice(items.indexOf(item), 1); render(); });
      entry.append(box, label, remove);
      fragment.append(entry);
    }
    list.replaceChildren(fragment);
    const left = items.filter((item) => !item.done).length;
    count.textContent = left + (left === 1 ? " item" : " items") + " left of " + items.length;
  };
  document.getElementById("todo-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    items.push({ id: nextId++, text, done: false });
    input.value = "";
    render();
  });
  for (const button of filters) {
    button.addEventListener("click", () => {
      filter = button.dataset.filter;
      for (const other of filters) other.setAttribute("aria-pressed", String(other === button));
      render();
    });
  }
  render();
}
`),
}

// tableSection is a sortable, searchable table of the data set.
var tableSection = section{
	css: `.table-wrap { overflow: auto; max-height: 32rem; }
table { width: 100%; border-collapse: collapse; }
th, td { text-align: left; padding: 0.4rem 0.6rem; border-bottom: 1px solid var(--line); }
th button { all: unset; cursor: pointer; font-weight: 700; }
th button:focus-visible { outline: 3px solid var(--accent); }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
`,
	html: fixed(`  <section data-kind="table" aria-labelledby="table-title">
    <h2 id="table-title">Table</h2>
    <div class="row"><label>Search <input id="table-search" type="search" placeholder="name, category or status"></label><span id="table-count" class="muted" aria-live="polite"></span></div>
    <div class="table-wrap">
      <table id="data-table">
        <thead>
          <tr>
            <th data-key="id" aria-sort="ascending"><button type="button">#</button></th>
            <th data-key="name" aria-sort="none"><button type="button">Name</button></th>
            <th data-key="category" aria-sort="none"><button type="button">Category</button></th>
            <th data-key="value" aria-sort="none"><button type="button">Value</button></th>
            <th data-key="status" aria-sort="none"><button type="button">Status</button></th>
            <th data-key="date" aria-sort="none"><button type="button">Date</button></th>
          </tr>
        </thead>
        <tbody id="table-body"></tbody>
      </table>
    </div>
  </section>
`),
	js: fixed(`{
  const body = document.getElementById("table-body");
  const search = document.getElementById("table-search");
  const count = document.getElementById("table-count");
  const headers = document.querySelectorAll("#data-table th[data-key]");
  const keys = ["id", "name", "category", "value", "status", "date"];
  let sortKey = "id";
  let direction = 1;
  const render = () => {
    const query = search.value.trim().toLowerCase();
    const rows = DATA.filter((row) => !query || (row.name + " " + row.category + " " + row.status).toLowerCase().includes(query));
    rows.sort((a, b) => (a[sortKey] < b[sortKey] ? -1 : a[sortKey] > b[sortKey] ? 1 : 0) * direction);
    const fragment = document.createDocumentFragment();
    for (const row of rows) {
      const line = document.createElement("tr");
      for (const key of keys) {
        const cell = document.createElement("td");
        cell.textContent = row[key];
        if (key === "value" || key === "id") cell.className = "num";
        line.append(cell);
      }
      fragment.append(line);
    }
    body.replaceChildren(fragment);
    count.textContent = rows.length + " of " + DATA.length + " rows";
  };
  for (const header of headers) {
    header.querySelector("button").addEventListener("click", () => {
      const key = header.dataset.key;
      direction = key === sortKey ? -direction : 1;
      sortKey = key;
      for (const other of headers) {
        other.setAttribute("aria-sort", other === header ? (direction === 1 ? "ascending" : "descending") : "none");
      }
      render();
    });
  }
  search.addEventListener("input", render);
  render();
}
`),
}

// gallerySection is a grid of generated tiles (CSS gradients), a category
// filter and a lightbox. An image sent with the prompt gets the first tile,
// with its format, size and aspect ratio.
var gallerySection = section{
	css: `.gallery { display: grid; grid-template-columns: repeat(auto-fill, minmax(9rem, 1fr)); gap: 0.75rem; }
.tile { all: unset; cursor: pointer; border-radius: 10px; overflow: hidden; border: 1px solid var(--line); display: grid; }
.tile .art { aspect-ratio: 4 / 3; }
.tile span { padding: 0.3rem 0.5rem; font-size: 0.9rem; }
.tile:focus-visible { outline: 3px solid var(--accent); }
dialog { border: none; border-radius: 12px; padding: 1rem; max-width: min(90vw, 40rem); background: var(--card); color: var(--fg); }
dialog .art { width: min(80vw, 36rem); aspect-ratio: 4 / 3; border-radius: 8px; }
`,
	html: func(a app) string {
		return `  <section data-kind="gallery" aria-labelledby="gallery-title">
    <h2 id="gallery-title">Gallery</h2>
    <div class="row" role="group" aria-label="Category" id="gallery-filters"></div>
    <div class="gallery" id="gallery"></div>
    <dialog id="lightbox" aria-labelledby="lightbox-caption">
      <div class="art" id="lightbox-art"></div>
      <p id="lightbox-caption"></p>
      <div class="row">
        <button type="button" id="lightbox-prev" class="secondary">Previous</button>
        <button type="button" id="lightbox-next" class="secondary">Next</button>
        <button type="button" id="lightbox-close">Close</button>
      </div>
    </dialog>
  </section>
`
	},
	js: func(a app) string {
		var uploads strings.Builder
		for i, im := range a.images {
			fmt.Fprintf(&uploads, "    { name: %q, category: \"Your images\", hue: %d, ratio: \"%d / %d\" },\n",
				fmt.Sprintf("Your %s, %d×%d", im.format, im.width, im.height), (i*67+200)%360, im.width, im.height)
		}
		return strings.Replace(galleryJS, "__UPLOADS__", uploads.String(), 1)
	},
}

// galleryJS builds the gallery; __UPLOADS__ lists the images the prompt sent.
const galleryJS = `{
  const tiles = [
__UPLOADS__  ].concat(DATA.map((row) => ({ name: row.name, category: row.category, hue: (row.id * 47) % 360, ratio: "4 / 3" })));
  const grid = document.getElementById("gallery");
  const filters = document.getElementById("gallery-filters");
  const dialog = document.getElementById("lightbox");
  const art = document.getElementById("lightbox-art");
  const caption = document.getElementById("lightbox-caption");
  let shown = tiles;
  let current = 0;
  const paint = (element, tile) => {
    element.style.background = "linear-gradient(135deg, hsl(" + tile.hue + " 70% 60%), hsl(" + ((tile.hue + 60) % 360) + " 70% 40%))";
    element.style.aspectRatio = tile.ratio;
  };
  const open = (index) => {
    current = (index + shown.length) % shown.length;
    paint(art, shown[current]);
    caption.textContent = shown[current].name + " — " + shown[current].category;
    if (!dialog.open) dialog.showModal();
  };
  const render = (category) => {
    shown = category === "All" ? tiles : tiles.filter((tile) => tile.category === category);
    const fragment = document.createDocumentFragment();
    shown.forEach((tile, index) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "tile";
      const picture = document.createElement("div");
      picture.className = "art";
      paint(picture, tile);
      const label = document.createElement("span");
      label.textContent = tile.name;
      button.append(picture, label);
      button.addEventListener("click", () => open(index));
      fragment.append(button);
    });
    grid.replaceChildren(fragment);
  };
  for (const category of ["All"].concat([...new Set(tiles.map((tile) => tile.category))])) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "secondary";
    button.textContent = category;
    button.setAttribute("aria-pressed", String(category === "All"));
    button.addEventListener("click", () => {
      for (const other of filters.children) other.setAttribute("aria-pressed", String(other === button));
      render(category);
    });
    filters.append(button);
  }
  document.getElementById("lightbox-prev").addEventListener("click", () => open(current - 1));
  document.getElementById("lightbox-next").addEventListener("click", () => open(current + 1));
  document.getElementById("lightbox-close").addEventListener("click", () => dialog.close());
  dialog.addEventListener("keydown", (event) => {
    if (event.key === "ArrowLeft") open(current - 1);
    if (event.key === "ArrowRight") open(current + 1);
  });
  render("All");
}
`
