// The page itself: its charts and tables, drawn from the records.

// A program as the charts name it: a crate's by its folder, a framework's
// by its framework and folder, its family dropped (a control names it):
// `borsh`, `<framework>/account`, `solana-program/borsh`.
function programLabel(r) {
  return r.framework === "pinocchio" ? r.program : r.framework + "/" + r.program.replace(r.family + "/", "");
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
    id: "message", title: "Message: CUs by the message's nominal size (bytes, log), per format", kind: "line",
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
    build: ({ family, operation }) => {
      const rows = frameworks.filter(r => r.family === family && r.operation === operation
        && (r.instance ?? "typical") === "typical")
        .map(r => Object.assign({}, r, { label: programLabel(r) }));
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
  // Where each program's CUs go (make profile): a bar per program,
  // stacked by category, one family and operation at a time (the token
  // family's exact shape, each program's largest message, the typical
  // metadata record); the categories dearest first over the bars shown.
  const profiled = DATA.records.filter(r => r.categories && !r.error_path
    && (r.shape ?? "exact") === "exact" && (r.instance ?? "typical") === "typical");
  if (profiled.length) chart(container, {
    id: "categories", title: "Where the CUs go (make profile): each program's CUs by category",
    // The token family first (every framework has it), then the others;
    // in each, the events' emits after the operations.
    controls: [{ label: "family: operation", values: distinct(profiled.map(r => r.family + ": " + r.operation))
      .sort((a, b) => b.startsWith("token:") - a.startsWith("token:") || a.includes(": emit") - b.includes(": emit")) }],
    build: choices => {
      const largest = new Map();
      for (const r of profiled.filter(r => r.family + ": " + r.operation === choices["family: operation"])) {
        const held = largest.get(programLabel(r));
        if (!held || (r.size ?? 0) > (held.size ?? 0)) largest.set(programLabel(r), r);
      }
      const names = [...largest.keys()].sort((a, b) => largest.get(a).cus - largest.get(b).cus);
      const total = k => names.reduce((sum, n) => sum + (largest.get(n).categories[k] ?? 0), 0);
      const kinds = distinct(names.flatMap(n => Object.keys(largest.get(n).categories)))
        .sort((a, b) => total(b) - total(a) || a.localeCompare(b));
      return {
        categories: names, unit: "CUs", log: false, kind: "stacked",
        series: kinds.map(k => ({ name: k, values: names.map(n => largest.get(n).categories[k] ?? null) })),
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
      id: "anchor-versions", title: "Anchor releases: each Anchor 1.x program's CUs per anchor-lang release, and apart, its Anchor 2 counterpart",
      controls: [{ label: "operation", values: distinct(rows.map(key)) }],
      build: ({ operation }) => {
        const picked = rows.filter(r => key(r) === operation);
        // Anchor 2 is another program, not the next point of a line.
        const anchor2 = releases.findIndex(v => !/^[01]\./.test(v));
        return {
          categories: releases, unit: "CUs", log: false, kind: "line",
          apart: anchor2 < 0 ? undefined : anchor2, apartLabel: "Anchor 2",
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
