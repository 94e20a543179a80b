import { formatDurationCompact, splitDuration } from "../index.ts";

/** The compact duration formatter's own source, so the hover read-out writes times as the chart's axis does. */
export const DURATION_SCRIPT = `${splitDuration.toString()}\n${formatDurationCompact.toString()}`;

/**
 * The report's only script: a hover read-out for the charts and the check filters. The charts are drawn without it;
 * it marks `<html data-report-ready>` once it has wired every chart, which the browser test looks for.
 */
export const REPORT_SCRIPT = `
(function () {
  "use strict";
  function fmt(v) {
    if (v === null || v === undefined) return "–";
    var a = Math.abs(v);
    if (a >= 100) return String(Math.round(v));
    if (a >= 10) return String(Math.round(v * 10) / 10);
    return String(Math.round(v * 100) / 100);
  }
  ${DURATION_SCRIPT}
  function clock(s) { return ${formatDurationCompact.name}(s * 1000); }
  var charts = document.querySelectorAll("svg.chart-svg[data-chart]");
  Array.prototype.forEach.call(charts, function (svg) {
    var data;
    try { data = JSON.parse(svg.getAttribute("data-chart")); } catch (e) { return; }
    var plot = svg.parentNode, tip = plot.querySelector(".tip"), guide = svg.querySelector(".guide");
    var length = data.series.reduce(function (n, s) { return Math.max(n, s.values.length); }, 0);
    if (!tip || !guide || length === 0) return;
    svg.addEventListener("mousemove", function (event) {
      var box = svg.getBoundingClientRect();
      var scale = box.width / data.viewWidth;
      var x = (event.clientX - box.left) / scale;
      var i = Math.floor(((x - data.left) / data.width) * length);
      if (i < 0 || i >= length) { tip.hidden = true; guide.setAttribute("visibility", "hidden"); return; }
      var gx = data.left + ((i + 0.5) / length) * data.width;
      guide.setAttribute("x1", gx); guide.setAttribute("x2", gx); guide.setAttribute("visibility", "visible");
      while (tip.firstChild) tip.removeChild(tip.firstChild);
      var head = document.createElement("div");
      head.textContent = clock(i * data.step) + (data.step > 1 ? " – " + clock((i + 1) * data.step) : "");
      tip.appendChild(head);
      data.series.forEach(function (s) {
        var row = document.createElement("div"), dot = document.createElement("span");
        dot.className = "dot"; dot.style.background = s.color;
        row.appendChild(dot);
        row.appendChild(document.createTextNode(s.name + ": " + fmt(s.values[i]) + (data.unit === "/s" ? "/s" : " " + data.unit)));
        tip.appendChild(row);
      });
      tip.hidden = false;
      var px = gx * scale, left = px + 14;
      if (left + tip.offsetWidth > box.width) left = px - tip.offsetWidth - 14;
      tip.style.left = Math.max(0, left) + "px";
    });
    svg.addEventListener("mouseleave", function () { tip.hidden = true; guide.setAttribute("visibility", "hidden"); });
  });
  Array.prototype.forEach.call(document.querySelectorAll("[data-checks]"), function (block) {
    var only = block.querySelector("[data-action=problems]");
    if (only) only.addEventListener("click", function () {
      var on = block.classList.toggle("only-problems");
      only.setAttribute("aria-pressed", on ? "true" : "false");
    });
    Array.prototype.forEach.call(block.querySelectorAll("[data-action=expand],[data-action=collapse]"), function (button) {
      button.addEventListener("click", function () {
        var open = button.getAttribute("data-action") === "expand";
        Array.prototype.forEach.call(block.querySelectorAll("details.check"), function (d) { d.open = open; });
      });
    });
  });
  document.documentElement.setAttribute("data-report-ready", String(charts.length));
})();
`;
