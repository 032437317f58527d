// The records table (filter, sort, compare) and the specs of the tables
// the page draws: the families', each make idl run's, the moves'.

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
            frames_differ: frameDifference(r.frames, other.frames),
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
    ], rows.some(r => r.categories) ? [
      { key: "differs", label: "what differs (make profile)" },
      { key: "frames_differ", label: "which frames differ", node: frameDetails },
    ] : []);
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
          column.node ? (value ? column.node(value, state) : "")
            : column.key === "ratio" ? value.toFixed(3) + "x"
            : column.link ? (value ? el("a", { href: value }, column.link) : "")
            : column.signed && typeof value === "number" ? signed(value)
            : column.numeric ? number(value) : (value ?? ""));
        if (value !== null && value !== undefined && !column.node) td.dataset.value = value;
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
  const moved = changes(new Map(Object.entries(a)), new Map(Object.entries(b)));
  return moved.length ? moved.map(f => f.name + " " + signed(f.change)).join(" · ") : "same";
}

// Each name whose value differs between two maps (name -> CUs), largest
// change first: [{name, a, b, change}].
function changes(left, right) {
  return distinct([...left.keys(), ...right.keys()])
    .map(name => ({ name, a: left.get(name) || 0, b: right.get(name) || 0 }))
    .map(f => Object.assign(f, { change: f.a - f.b }))
    .filter(f => f.change !== 0)
    .sort((x, y) => Math.abs(y.change) - Math.abs(x.change) || x.name.localeCompare(y.name));
}

// A record's frames (make profile) as a map, frame -> self CUs: the page
// holds them as [index, CUs] pairs into DATA.frameNames.
function frameCus(frames) {
  return new Map((frames || []).map(([i, cus]) => [DATA.frameNames[i], cus]));
}

// Every frame whose self CUs differ between two records, largest change
// first. Self CUs sum to a record's CUs, so the changes sum to the
// difference of the two records' CUs.
function frameDifference(a, b) {
  return a && b ? changes(frameCus(a), frameCus(b)) : null;
}

// The frames that differ, side by side: the three largest changes, and
// every frame's self CUs in each record on opening.
function frameDetails(list, state) {
  if (!list.length) return "same";
  const top = list.slice(0, 3).map(f => f.name + " " + signed(f.change)).join(" · ")
    + (list.length > 3 ? " · " + (list.length - 3) + " more" : "");
  const head = el("tr", {}, el("th", {}, "frame"), el("th", { class: "num" }, state.a),
    el("th", { class: "num" }, state.b), el("th", { class: "num" }, "change"));
  const rows = list.map(f => el("tr", { "data-frame": f.name, "data-change": f.change },
    el("td", {}, f.name), el("td", { class: "num" }, number(f.a)),
    el("td", { class: "num" }, number(f.b)), el("td", { class: "num" }, signed(f.change))));
  const total = list.reduce((sum, f) => sum + f.change, 0);
  const foot = el("tr", { "data-total": total }, el("td", {}, "these frames"),
    el("td", { class: "num" }, number(list.reduce((sum, f) => sum + f.a, 0))),
    el("td", { class: "num" }, number(list.reduce((sum, f) => sum + f.b, 0))),
    el("td", { class: "num" }, signed(total)));
  return el("details", { class: "frames" }, el("summary", {}, top),
    el("table", {}, el("thead", {}, head), el("tbody", {}, ...rows), el("tfoot", {}, foot)));
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
    path: r.format + (r.move.capacity ? " at capacity" : "") + (r.move.rank === 0 ? " (today)" : ""),
    change: r.move.rank === 0 ? "today" : r.move.change_cus,
    read_cus: r.move.read_cus ?? "",
    update_cus: r.move.update_cus ?? "",
    rent_lamports: r.move.rent_lamports ?? "",
    reordered: r.move.reordered_bytes === undefined ? ""
      : r.move.reordered_bytes + " bytes, " + r.move.reordered_rent_saved + " lamports less rent",
  }),
};
