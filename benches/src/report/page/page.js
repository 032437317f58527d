// The page's tables and charts, from the records inlined in #data. No
// library and no request: everything is drawn here, as HTML and SVG.
"use strict";

const DATA = JSON.parse(document.getElementById("data").textContent);
const COLORS = ["#4269d0", "#efb118", "#ff725c", "#6cc5b0", "#3ca951", "#ff8ab7",
  "#a463f2", "#97bbf5", "#9c6b4e", "#9498a0", "#1b9e77", "#d95f02"];

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
  node.append(...children);
  return node;
}

function svgEl(tag, attrs) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
  return node;
}

function distinct(values) {
  const seen = [...new Set(values.filter(v => v !== null && v !== undefined))];
  return seen.sort((a, b) => (typeof a === "number" && typeof b === "number")
    ? a - b : String(a).localeCompare(String(b)));
}

function labelled(text, control) {
  return el("label", {}, text, control);
}

function number(value) {
  return typeof value === "number" ? value.toLocaleString("en-US", { maximumFractionDigits: 3 }) : "";
}

// A change: `+3`, `-2`, `0`; empty where the baseline has no such row.
function signed(value) {
  return typeof value === "number" ? (value > 0 ? "+" : "") + number(value) : "";
}

// ---- tooltip ----

const tooltip = document.getElementById("tooltip");
function hover(node, text) {
  node.addEventListener("mousemove", event => {
    tooltip.textContent = text;
    tooltip.hidden = false;
    tooltip.style.left = (event.clientX + 12) + "px";
    tooltip.style.top = (event.clientY + 12) + "px";
  });
  node.addEventListener("mouseleave", () => { tooltip.hidden = true; });
}

// ---- the table: filter, sort, compare ----

// `spec`: columns [{key, label, numeric, signed}], filters [{key, label}], the
// column whose values are compared (`compare`) and the columns a matching
// row shares (`match`).
function table(root, records, spec) {
  const rows = records.map(record => Object.assign({}, record, spec.derive(record)));
  const state = { filters: {}, sort: null, direction: 1, a: "", b: "" };
  const controls = el("div", { class: "controls" });
  for (const filter of spec.filters) {
    const select = el("select", { "data-filter": filter.key }, el("option", { value: "" }, "all"));
    for (const value of distinct(rows.map(r => r[filter.key]))) {
      const text = String(value);
      select.append(el("option", { value: text }, text.length > 60 ? text.slice(0, 57) + "..." : text));
    }
    select.addEventListener("change", () => { state.filters[filter.key] = select.value; draw(); });
    controls.append(labelled(filter.label, select));
  }
  const choices = distinct(rows.map(r => r[spec.compare]));
  const compareSelect = which => {
    const select = el("select", { "data-compare": which }, el("option", { value: "" }, "-"));
    choices.forEach(value => select.append(el("option", { value }, value)));
    select.addEventListener("change", () => { state[which] = select.value; draw(); });
    return select;
  };
  controls.append(labelled("compare", compareSelect("a")), labelled("with", compareSelect("b")));
  const count = el("span", { class: "count" });
  controls.append(count);
  const scroll = el("div", { class: "scroll" });
  root.append(controls, scroll);

  const matchKey = row => spec.match.map(key => String(row[key])).join("\u0001");

  function shown() {
    let list = rows.filter(row => Object.entries(state.filters)
      .every(([key, value]) => value === "" || String(row[key]) === value));
    if (state.a && state.b) {
      const others = new Map();
      rows.filter(r => r[spec.compare] === state.b && typeof r.cus === "number")
        .forEach(r => others.set(matchKey(r), r));
      list = list.filter(r => r[spec.compare] === state.a && typeof r.cus === "number")
        .flatMap(r => {
          const other = others.get(matchKey(r));
          return other ? [Object.assign({}, r, {
            other_cus: other.cus,
            ratio: r.cus / other.cus,
            differs: categoryDifference(r.categories, other.categories),
          })] : [];
        });
    }
    if (state.sort) {
      const key = state.sort;
      list.sort((x, y) => {
        const a = x[key], b = y[key];
        if (a === null || a === undefined) return 1;
        if (b === null || b === undefined) return -1;
        const order = typeof a === "number" && typeof b === "number" ? a - b : String(a).localeCompare(String(b));
        return order * state.direction;
      });
    }
    return list;
  }

  // A column marked optional shows only where some record has a value
  // (make profile's, after a make profile run).
  const present = spec.columns.filter(c => !c.optional || rows.some(r => r[c.key] != null));

  function columns() {
    if (!(state.a && state.b)) return present;
    return present.concat([
      { key: "other_cus", label: state.b + " CUs", numeric: true },
      { key: "ratio", label: state.a + " / " + state.b, numeric: true },
    ], rows.some(r => r.categories) ? [{ key: "differs", label: "what differs (make profile)" }] : []);
  }

  function draw() {
    const list = shown();
    const head = el("tr");
    for (const column of columns()) {
      const th = el("th", { "data-key": column.key, class: column.numeric ? "num" : "" }, column.label);
      if (state.sort === column.key) th.dataset.sort = state.direction > 0 ? "asc" : "desc";
      th.addEventListener("click", () => {
        state.direction = state.sort === column.key ? -state.direction : 1;
        state.sort = column.key;
        draw();
      });
      head.append(th);
    }
    const body = el("tbody");
    for (const row of list) {
      const tr = el("tr", { "data-row": row.row || "" });
      if (row.mainnet_ok === false) tr.classList.add("fault");
      for (const column of columns()) {
        const value = row[column.key];
        const td = el("td", column.numeric ? { class: "num" } : {},
          column.key === "ratio" ? value.toFixed(3) + "x"
            : column.link ? (value ? el("a", { href: value }, column.link) : "")
            : column.signed && typeof value === "number" ? signed(value)
            : column.numeric ? number(value) : (value ?? ""));
        if (value !== null && value !== undefined) td.dataset.value = value;
        tr.append(td);
      }
      body.append(tr);
    }
    scroll.replaceChildren(el("table", {}, el("thead", {}, head), body));
    count.textContent = list.length + " of " + rows.length + " records";
    count.dataset.shown = list.length;
    count.dataset.total = rows.length;
  }
  draw();
}

// A record's CUs by category (make profile), dearest first:
// "decode 1,719 · entrypoint 32".
function categoryText(categories) {
  if (!categories) return null;
  return Object.entries(categories).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([name, cus]) => name + " " + number(cus)).join(" · ");
}

// What one record spends per category beyond another, largest change
// first: "decode +1,711 · checks -2"; "same" where nothing moved.
function categoryDifference(a, b) {
  if (!a || !b) return null;
  const names = distinct(Object.keys(a).concat(Object.keys(b)));
  const moved = names.map(name => [name, (a[name] || 0) - (b[name] || 0)])
    .filter(([, delta]) => delta !== 0)
    .sort((x, y) => Math.abs(y[1]) - Math.abs(x[1]) || x[0].localeCompare(y[0]));
  return moved.length ? moved.map(([name, delta]) => name + " " + signed(delta)).join(" · ") : "same";
}

const NUMBERS = [
  { key: "cus", label: "CUs" },
  { key: "delta_cus", label: "change vs baseline", signed: true },
  { key: "net_cus", label: "CUs above the floor" },
  { key: "instructions", label: "instructions" },
  { key: "syscall_cus", label: "syscall CUs" },
  { key: "stack_bytes", label: "stack" },
  { key: "heap_bytes", label: "heap" },
  { key: "account_bytes", label: "account bytes" },
  { key: "encoded_bytes", label: "encoded bytes" },
  { key: "so_bytes", label: ".so bytes" },
].map(c => Object.assign({ numeric: true }, c));

const FAMILIES = {
  columns: [
    { key: "family", label: "family" },
    { key: "framework", label: "framework" },
    { key: "program", label: "crate or format" },
    { key: "shape", label: "shape" },
    { key: "variant", label: "size or instance" },
    { key: "operation", label: "operation" },
    { key: "outcome", label: "outcome" },
  ].concat(NUMBERS, [
    { key: "where", label: "where the CUs go (make profile)", optional: true },
    { key: "flamegraph", label: "profile", link: "flamegraph", optional: true },
  ]),
  filters: [
    { key: "family", label: "family" },
    { key: "program", label: "crate or format" },
    { key: "shape", label: "shape" },
    { key: "variant", label: "size or instance" },
    { key: "operation", label: "operation" },
    { key: "framework", label: "framework" },
    { key: "outcome", label: "outcome" },
  ],
  compare: "program",
  match: ["family", "framework", "shape", "variant", "operation"],
  derive: r => ({
    variant: r.size ?? r.instance ?? null,
    where: categoryText(r.categories),
    // Beside report.html: profile/<row>.svg.
    flamegraph: r.profile ? r.profile.replace(/\.folded$/, ".svg") : null,
    outcome: (r.error_path ? "error: " + r.error_path : "success")
      + (r.mainnet_ok === false ? " (faults with mainnet's features)" : ""),
  }),
};

const IDL = {
  columns: [
    { key: "site", label: "site" },
    { key: "name", label: "name" },
    { key: "framework", label: "framework" },
    { key: "format", label: "format" },
    { key: "crate", label: "crate" },
    { key: "operation", label: "operation" },
    { key: "instance", label: "instance" },
    { key: "kind", label: "kind" },
    { key: "outcome", label: "outcome" },
    { key: "mainnet", label: "mainnet" },
  ].concat(NUMBERS.filter(c => !["delta_cus", "net_cus", "encoded_bytes", "so_bytes"].includes(c.key))),
  filters: [
    { key: "site", label: "site" },
    { key: "name", label: "name" },
    { key: "format", label: "format" },
    { key: "operation", label: "operation" },
    { key: "instance", label: "instance" },
    { key: "outcome", label: "outcome" },
  ],
  compare: "format",
  match: ["site", "name", "operation", "instance"],
  derive: r => ({
    mainnet: r.mainnet_ok === true ? "equal" : r.mainnet_ok === false ? "faults" : "not replayed",
  }),
};

// A `make idl` run's moves table (an Anchor IDL's): per account type,
// instruction and event, the path the program runs today, then each
// measured alternative, cheapest first.
const MOVES = {
  columns: [
    { key: "site", label: "site" },
    { key: "name", label: "name" },
    { key: "path", label: "path" },
    { key: "framework", label: "framework" },
    { key: "cus", label: "CUs (full, args, emit)", numeric: true },
    { key: "read_cus", label: "read", numeric: true },
    { key: "update_cus", label: "update", numeric: true },
    { key: "change", label: "change (full for an account)", numeric: true, signed: true },
    { key: "account_bytes", label: "bytes", numeric: true },
    { key: "rent_lamports", label: "rent (lamports)", numeric: true },
    { key: "reordered", label: "reordered, no padding" },
  ],
  filters: [
    { key: "site", label: "site" },
    { key: "name", label: "name" },
    { key: "framework", label: "framework" },
  ],
  compare: "path",
  match: ["site", "name"],
  derive: r => ({
    path: r.format + (r.move.rank === 0 ? " (today)" : ""),
    change: r.move.rank === 0 ? "today" : r.move.change_cus,
    read_cus: r.move.read_cus ?? "",
    update_cus: r.move.update_cus ?? "",
    rent_lamports: r.move.rent_lamports ?? "",
    reordered: r.move.reordered_bytes === undefined ? ""
      : r.move.reordered_bytes + " bytes, " + r.move.reordered_rent_saved + " lamports less rent",
  }),
};

// ---- charts ----

// `def`: a title, controls [{label, values}] and `build(choices)` giving
// {categories, series: [{name, values}], log, kind: "bar" | "line", unit}.
function chart(container, def) {
  const root = el("div", { class: "chart", "data-chart": def.id });
  const choices = {};
  const controls = el("div", { class: "controls" });
  for (const control of def.controls) {
    const select = el("select", {});
    control.values.forEach(value => select.append(el("option", { value }, String(value))));
    choices[control.label] = control.values[0];
    select.addEventListener("change", () => { choices[control.label] = select.value; hidden.clear(); draw(); });
    controls.append(labelled(control.label, select));
  }
  const figure = el("div", {});
  const legend = el("div", { class: "legend" });
  root.append(el("h3", {}, def.title), controls, figure, legend);
  container.append(root);
  const hidden = new Set();

  function draw() {
    const built = def.build(choices);
    const series = built.series.map((s, i) => Object.assign({ color: COLORS[i % COLORS.length] }, s));
    legend.replaceChildren(...series.map(s => {
      const button = el("button", { type: "button", class: hidden.has(s.name) ? "off" : "" },
        el("i", { style: "background:" + s.color }), s.name);
      button.addEventListener("click", () => {
        hidden.has(s.name) ? hidden.delete(s.name) : hidden.add(s.name);
        draw();
      });
      return button;
    }));
    figure.replaceChildren(plot(built, series.filter(s => !hidden.has(s.name))));
  }
  draw();
}

function plot(built, series) {
  const width = 680, height = 340, left = 64, right = 12, top = 12, bottom = 96;
  const svg = svgEl("svg", { viewBox: `0 0 ${width} ${height}`, role: "img" });
  const values = series.flatMap(s => s.values).filter(v => typeof v === "number" && (!built.log || v > 0));
  if (values.length === 0) {
    const text = svgEl("text", { x: width / 2, y: height / 2, "text-anchor": "middle" });
    text.textContent = "no values";
    svg.append(text);
    return svg;
  }
  const plotWidth = width - left - right, plotHeight = height - top - bottom;
  let low, high, ticks;
  if (built.log) {
    low = Math.floor(Math.log10(Math.min(...values)));
    high = Math.max(low + 1, Math.ceil(Math.log10(Math.max(...values))));
    ticks = [];
    for (let p = low; p <= high; p++) ticks.push(10 ** p);
  } else {
    low = 0;
    const step = niceStep(Math.max(...values) / 5);
    high = step * Math.ceil(Math.max(...values) / step);
    ticks = [];
    for (let t = 0; t <= high + step / 2; t += step) ticks.push(t);
  }
  const y = v => {
    const at = built.log ? (Math.log10(v) - low) / (high - low) : (v - low) / (high - low);
    return top + plotHeight * (1 - at);
  };
  for (const tick of ticks) {
    svg.append(svgEl("line", { x1: left, x2: width - right, y1: y(tick), y2: y(tick), stroke: "#e4e7ec" }));
    const label = svgEl("text", { x: left - 6, y: y(tick) + 4, "text-anchor": "end", "font-size": 11 });
    label.textContent = number(tick);
    svg.append(label);
  }
  const unit = svgEl("text", { x: 12, y: top + plotHeight / 2, "font-size": 11, transform: `rotate(-90 12 ${top + plotHeight / 2})`, "text-anchor": "middle" });
  unit.textContent = built.unit + (built.log ? " (log)" : "");
  svg.append(unit);
  const count = built.categories.length;
  const slot = plotWidth / Math.max(count, 1);
  // Numeric categories on a log axis (`xLog`): each at its proportional
  // place, half a slot in from either end.
  const logs = built.xLog ? built.categories.map(c => Math.log10(Number(c))) : null;
  const [xLow, xHigh] = logs ? [Math.min(...logs), Math.max(...logs)] : [0, 0];
  const xAt = i => logs && xHigh > xLow
    ? left + slot / 2 + (plotWidth - slot) * (logs[i] - xLow) / (xHigh - xLow)
    : left + slot * (i + 0.5);
  built.categories.forEach((category, i) => {
    const x = xAt(i);
    const label = svgEl("text", { x, y: height - bottom + 12, "font-size": 11, "text-anchor": "end", transform: `rotate(-40 ${x} ${height - bottom + 12})` });
    label.textContent = String(category);
    svg.append(label);
  });
  const base = top + plotHeight;
  if (built.kind === "line") {
    for (const s of series) {
      const points = s.values.map((v, i) => [xAt(i), v])
        .filter(([, v]) => typeof v === "number" && (!built.log || v > 0));
      svg.append(svgEl("polyline", { points: points.map(([x, v]) => `${x},${y(v)}`).join(" "), fill: "none", stroke: s.color, "stroke-width": 2 }));
      points.forEach(([x, v], i) => {
        const dot = svgEl("circle", { cx: x, cy: y(v), r: 4, fill: s.color, "data-value": v });
        hover(dot, `${s.name} at ${built.categories[s.values.indexOf(v)] ?? ""}: ${number(v)} ${built.unit}`);
        svg.append(dot);
      });
    }
  } else {
    const barWidth = slot * 0.8 / Math.max(series.length, 1);
    series.forEach((s, k) => s.values.forEach((v, i) => {
      if (typeof v !== "number" || (built.log && v <= 0)) return;
      const x = left + slot * i + slot * 0.1 + barWidth * k;
      const bar = svgEl("rect", { x, y: y(v), width: Math.max(barWidth - 1, 1), height: Math.max(base - y(v), 0.5), fill: s.color, "data-value": v });
      hover(bar, `${built.categories[i]}, ${s.name}: ${number(v)} ${built.unit}`);
      svg.append(bar);
    }));
  }
  return svg;
}

// The CUs of the row labelled `name`, for ordering.
function cusOf(rows, name) {
  return rows.find(r => r.label === name)?.cus ?? 1e12;
}

function niceStep(raw) {
  const power = 10 ** Math.floor(Math.log10(raw || 1));
  for (const m of [1, 2, 5, 10]) if (raw <= m * power) return m * power;
  return 10 * power;
}

function families(family) {
  return DATA.records.filter(r => r.family === family && r.framework === "pinocchio" && !r.error_path);
}

// A chart of `records`' CUs, one operation at a time: a category per
// value of `category` (in `order`'s order, if given), a series per value
// of `by` (in `series`' order, if given).
function cusChart(container, def) {
  if (!def.records.length) return;
  chart(container, {
    id: def.id, title: def.title,
    controls: [{ label: "operation", values: distinct(def.records.map(r => r.operation)) }],
    build: ({ operation }) => {
      const rows = def.records.filter(r => r.operation === operation);
      const categories = def.order ? def.order(rows) : distinct(rows.map(r => r[def.category]));
      const names = (def.series ?? distinct(rows.map(r => r[def.by])))
        .filter(name => rows.some(r => r[def.by] === name));
      return {
        categories, unit: "CUs", log: true, kind: def.kind, xLog: def.xLog,
        series: names.map(name => ({
          name,
          values: categories.map(c => rows.find(r => r[def.category] === c && r[def.by] === name)?.cus ?? null),
        })),
      };
    },
  });
}

function charts(container) {
  cusChart(container, {
    id: "token", title: "Token account: CUs per crate and length shape", kind: "bar",
    records: families("token"), category: "program", by: "shape",
    // Cheapest first, by the exact shape.
    order: rows => {
      const exact = new Map(rows.filter(r => r.shape === "exact").map(r => [r.program, r.cus]));
      return distinct(rows.map(r => r.program)).sort((a, b) => (exact.get(a) ?? 1e12) - (exact.get(b) ?? 1e12));
    },
  });
  cusChart(container, {
    id: "message", title: "Message: CUs by encoded size (bytes, log), per format", kind: "line",
    records: families("message"), category: "size", by: "program", xLog: true,
  });
  cusChart(container, {
    id: "metadata", title: "Metadata: CUs per format and instance", kind: "bar",
    records: families("metadata"), category: "program", by: "instance",
    series: ["minimal", "typical", "full"],
  });
  // Each framework's programs beside its floor, one family and operation
  // at a time: CUs, and CUs above the framework's floor.
  const frameworks = DATA.records.filter(r => r.framework !== "pinocchio" && !r.operation.startsWith("emit"));
  if (frameworks.length) chart(container, {
    id: "frameworks", title: "Frameworks: CUs per program, and above its framework's floor",
    // The token family first (every framework has it), then the others.
    controls: [
      { label: "family", values: distinct(frameworks.map(r => r.family)).sort((a, b) => (b === "token") - (a === "token")) },
      { label: "operation", values: distinct(frameworks.map(r => r.operation)) },
    ],
    // A program is named by its framework and folder, its family dropped
    // (the control names it): `anchor1/account`, `solana-program/borsh`.
    build: ({ family, operation }) => {
      const rows = frameworks.filter(r => r.family === family && r.operation === operation
        && (r.instance ?? "typical") === "typical")
        .map(r => Object.assign({}, r, { label: r.framework + "/" + r.program.replace(family + "/", "") }));
      const names = distinct(rows.map(r => r.label))
        .sort((a, b) => cusOf(rows, a) - cusOf(rows, b));
      return {
        categories: names, unit: "CUs", log: true, kind: "bar",
        series: [["CUs", "cus"], ["above the floor", "net_cus"]].map(([name, key]) => ({
          name, values: names.map(n => rows.find(r => r.label === n)?.[key] ?? null),
        })),
      };
    },
  });
  // Events: each framework's emit paths of each record.
  const events = DATA.records.filter(r => r.operation.startsWith("emit"));
  if (events.length) chart(container, {
    id: "events", title: "Events: CUs of an emit, per framework and record",
    controls: [{ label: "family", values: distinct(events.map(r => r.family)) }],
    build: ({ family }) => {
      const rows = events.filter(r => r.family === family && (r.instance ?? "typical") === "typical");
      const operations = distinct(rows.map(r => r.operation));
      const programs = distinct(rows.map(r => r.framework + "/" + r.program));
      return {
        categories: operations, unit: "CUs", log: false, kind: "bar",
        series: programs.map(p => ({
          name: p, values: operations.map(o => rows.find(r => r.framework + "/" + r.program === p && r.operation === o)?.cus ?? null),
        })),
      };
    },
  });
  const footprint = DATA.records.filter(r => r.framework === "pinocchio" && !r.error_path && typeof r.stack_bytes === "number");
  if (footprint.length) chart(container, {
    id: "footprint", title: "Stack and heap per format (the largest message, the full metadata record)",
    controls: [
      { label: "family", values: distinct(footprint.map(r => r.family)) },
      { label: "operation", values: distinct(footprint.map(r => r.operation)) },
    ],
    build: ({ family, operation }) => {
      const rows = footprint.filter(r => r.family === family && r.operation === operation
        && (r.shape ?? "exact") === "exact" && (r.instance ?? "full") === "full");
      const programs = distinct(rows.map(r => r.program));
      const pick = p => rows.filter(r => r.program === p).sort((a, b) => (b.size ?? 0) - (a.size ?? 0))[0];
      return {
        categories: programs, unit: "bytes", log: true, kind: "bar",
        series: [["stack", "stack_bytes"], ["heap", "heap_bytes"]].map(([name, key]) => ({
          name, values: programs.map(p => pick(p)?.[key] ?? null),
        })),
      };
    },
  });
  // The Anchor 1.x programs on each anchor-lang release (make
  // anchor-versions): one operation at a time, a line per program.
  const versions = DATA.anchorVersions;
  if (versions && versions.rows) {
    const releases = versions.releases.map(c => c.release);
    const rows = Object.values(versions.rows);
    const key = r => r.operation + (r.group && r.group !== "exact" ? " / " + r.group : "");
    chart(container, {
      id: "anchor-versions", title: "Anchor releases: each Anchor 1.x program's CUs per anchor-lang release (Anchor 2's counterpart last)",
      controls: [{ label: "operation", values: distinct(rows.map(key)) }],
      build: ({ operation }) => {
        const picked = rows.filter(r => key(r) === operation);
        return {
          categories: releases, unit: "CUs", log: false, kind: "line",
          series: picked.map(r => ({
            name: r.program, values: releases.map(v => typeof r.cells[v] === "number" ? r.cells[v] : null),
          })),
        };
      },
    });
  }
  const wire = Array.isArray(DATA.wire) ? DATA.wire.filter(r => r.family === "message") : [];
  if (wire.length) chart(container, {
    id: "wire", title: "On the wire: a message's bytes per format and encoding (make wire)",
    controls: [{ label: "size", values: distinct(wire.map(r => r.size)) }],
    build: ({ size }) => {
      const rows = wire.filter(r => String(r.size) === String(size));
      const formats = distinct(rows.map(r => r.format));
      const encodings = Object.keys(rows[0]?.sizes ?? {});
      return {
        categories: formats, unit: "bytes", log: false, kind: "bar",
        series: encodings.map(encoding => ({
          name: encoding, values: formats.map(f => rows.find(r => r.format === f)?.sizes[encoding] ?? null),
        })),
      };
    },
  });
}

charts(document.querySelector("#charts .charts"));
for (const root of document.querySelectorAll(".table[data-source]")) {
  const source = root.dataset.source;
  if (source === "families") {
    table(root, DATA.records, FAMILIES);
  } else {
    const run = DATA.idl.find(r => "idl:" + r.program === source);
    table(root, run ? run.records.filter(r => r.operation !== "move") : [], IDL);
    if (run) movesTable(root.parentElement, run);
    if (run) idlChart(root.parentElement, run);
  }
}

function movesTable(container, run) {
  const moves = run.records.filter(r => r.operation === "move");
  if (!moves.length) return;
  const root = el("div", { class: "table", "data-moves": run.program });
  container.append(el("h3", {}, run.program + ": what each move would save"), root);
  table(root, moves, MOVES);
}

// A `make idl` run's accounts by format, one operation at a time.
function idlChart(container, run) {
  const rows = run.records.filter(r => r.site === "account" && r.operation !== "move" && typeof r.cus === "number"
    && (r.instance === "full" || r.instance === "data"));
  if (!rows.length) return;
  const holder = el("div", { class: "charts" });
  container.append(holder);
  chart(holder, {
    id: "idl-" + run.program, title: run.program + ": each account's CUs by format",
    controls: [{ label: "operation", values: distinct(rows.map(r => r.operation)) }],
    build: ({ operation }) => {
      const picked = rows.filter(r => r.operation === operation);
      const accounts = distinct(picked.map(r => r.name));
      const formats = distinct(picked.map(r => r.format));
      return {
        categories: accounts, unit: "CUs", log: true, kind: "bar",
        series: formats.map(f => ({
          name: f, values: accounts.map(a => picked.find(r => r.name === a && r.format === f)?.cus ?? null),
        })),
      };
    },
  });
}
