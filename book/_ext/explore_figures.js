/* Interactive figures of privbook (privlib.book.explore): draws each figure with plotly and, when
   a control moves, shows the curves precomputed for the chosen parameter values. */
(function () {
  "use strict";
  const CLASS = "privbook-explore";

  // The figure's text takes the colour of its place on the page: in the book's dark mode the theme
  // keeps HTML outputs on a light background with dark text, and so does the figure.
  function themeColors(element) {
    return {font: getComputedStyle(element).color || "#222", grid: "rgba(128,128,128,0.3)"};
  }

  function themed(layout, element) {
    const c = themeColors(element);
    const out = Object.assign({}, layout, {font: Object.assign({}, layout.font, {color: c.font})});
    for (const axis of ["xaxis", "yaxis"]) {
      out[axis] = Object.assign({}, layout[axis], {gridcolor: c.grid, linecolor: c.font, tickcolor: c.font});
      // powers of ten on log axes (plotly's default writes 100µ for 1e-4)
      if (out[axis].type === "log") out[axis].exponentformat = "power";
    }
    return out;
  }

  function setUp(figure) {
    const data = JSON.parse(figure.querySelector("script." + CLASS + "-data").textContent);
    const plot = figure.querySelector("." + CLASS + "-plot");
    const controls = [...figure.querySelectorAll("[data-param]")];
    const state = data.params.map(p => p.start);
    // the plot takes its box's width, now and whenever the box changes width (a phone turned, the
    // window or the sidebar resized): plotly's own resize handler does not always follow
    const layout = Object.assign({}, data.figure.layout, {autosize: true});
    Plotly.newPlot(plot, data.figure.data, themed(layout, figure),
                   {responsive: true, displaylogo: false, modeBarButtonsToRemove: ["toImage", "sendDataToCloud"]});
    let drawnWidth = plot.clientWidth;
    if (typeof ResizeObserver !== "undefined") {
      new ResizeObserver(() => {
        if (plot.clientWidth > 0 && Math.abs(plot.clientWidth - drawnWidth) > 1) {
          drawnWidth = plot.clientWidth;
          Plotly.relayout(plot, {width: drawnWidth});
        }
      }).observe(plot);
    }
    function show() {
      const frame = data.frames[state.join(",")];
      if (!frame) return;
      const update = {y: frame.y};
      if (frame.x) update.x = frame.y.map(() => frame.x);
      Plotly.restyle(plot, update);
    }
    show();
    for (const control of controls) {
      control.addEventListener("input", () => {
        const k = Number(control.dataset.param);
        state[k] = Number(control.value);
        const label = data.params[k].labels[state[k]];
        const output = figure.querySelector("output[for='" + control.id + "']");
        if (output) output.textContent = label;
        if (control.type === "range") control.setAttribute("aria-valuetext", label);
        show();
      });
    }
    figure.querySelector("." + CLASS + "-controls").hidden = false;
    const fallback = figure.querySelector("." + CLASS + "-fallback");
    if (fallback) fallback.remove();
    figure.dataset.ready = "true";
    return plot;
  }

  function start() {
    if (typeof Plotly === "undefined") return;
    const plots = [...document.querySelectorAll("figure." + CLASS)].map(setUp);
    // follow the book's light/dark switch
    new MutationObserver(() => {
      for (const plot of plots) Plotly.relayout(plot, themed(plot.layout, plot.closest("figure")));
    }).observe(document.documentElement, {attributes: true, attributeFilter: ["data-theme"]});
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
