// The page's script, in four files inlined in this order (base, table,
// charts, page): no library and no request; everything is drawn here, as
// HTML and SVG, from the records inlined in #data. This file: the data
// and the small helpers every part uses.
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
