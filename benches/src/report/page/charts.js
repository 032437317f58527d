// The charts: one builder (controls, bars or lines, a legend that hides
// series) and the CUs chart every family's and framework's chart is.

// `def`: a title, controls [{label, values}] and `build(choices)` giving
// {categories, series: [{name, values}], log, kind: "bar" | "line" |
// "stacked", unit}. A stacked chart's series are the parts of one bar per
// category (on a linear axis: the parts add up).
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
  // The category labels, slanted at 40 degrees, get the room their
  // longest needs (11px text, at most 6.5px a character): below the plot
  // and, for the first, left of it.
  const slant = 40 * Math.PI / 180;
  const longest = Math.max(0, ...built.categories.map(c => String(c).length)) * 6.5;
  const width = 680, right = 12, top = 12;
  const bottom = Math.max(96, Math.ceil(longest * Math.sin(slant)) + 24);
  const height = 244 + bottom;
  const firstSlot = (width - 64 - right) / Math.max(built.categories.length, 1);
  const left = Math.max(64, Math.ceil(longest * Math.cos(slant) - firstSlot / 2) + 8);
  const svg = svgEl("svg", { viewBox: `0 0 ${width} ${height}`, role: "img" });
  const stacked = built.kind === "stacked";
  const values = (stacked
    ? built.categories.map((_, i) => series.reduce((sum, s) => sum + (s.values[i] ?? 0), 0))
    : series.flatMap(s => s.values)).filter(v => typeof v === "number" && (!built.log || v > 0));
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
    // Categories from `apart` on are another program's: their points are
    // drawn, not joined to the line, past a dashed rule.
    const apart = built.apart ?? count;
    if (apart > 0 && apart < count) {
      const x = (xAt(apart - 1) + xAt(apart)) / 2;
      svg.append(svgEl("line", { x1: x, x2: x, y1: top, y2: base, stroke: "#8a93a3", "stroke-dasharray": "4 3", class: "apart" }));
      const label = svgEl("text", { x: x + 4, y: top + 10, "font-size": 11, fill: "#5b6475" });
      label.textContent = built.apartLabel ?? "";
      svg.append(label);
    }
    for (const s of series) {
      const points = s.values.map((v, i) => [xAt(i), v, i])
        .filter(([, v]) => typeof v === "number" && (!built.log || v > 0));
      const joined = points.filter(([, , i]) => i < apart);
      svg.append(svgEl("polyline", { points: joined.map(([x, v]) => `${x},${y(v)}`).join(" "), fill: "none", stroke: s.color, "stroke-width": 2 }));
      points.forEach(([x, v], i) => {
        const dot = svgEl("circle", { cx: x, cy: y(v), r: 4, fill: s.color, "data-value": v });
        hover(dot, `${s.name} at ${built.categories[s.values.indexOf(v)] ?? ""}: ${number(v)} ${built.unit}`);
        svg.append(dot);
      });
    }
  } else if (stacked) {
    built.categories.forEach((category, i) => {
      let below = 0;
      for (const s of series) {
        const v = s.values[i];
        if (typeof v !== "number" || v <= 0) continue;
        const bar = svgEl("rect", { x: left + slot * i + slot * 0.1, y: y(below + v), width: Math.max(slot * 0.8 - 1, 1), height: Math.max(y(below) - y(below + v), 0.5), fill: s.color, "data-value": v, "data-series": s.name, "data-category": category });
        hover(bar, `${category}, ${s.name}: ${number(v)} ${built.unit}`);
        svg.append(bar);
        below += v;
      }
    });
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
