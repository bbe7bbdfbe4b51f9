// The temperature slider (issue 38, item 5): a sampling problem's next-token probabilities drawn as
// bars, each with its number as text beside it, redrawn as T moves along a log scale from about
// 0.05 to 20. Its far left is T → 0, the limit: the most likely token (tied ones sharing) at
// 1.000, greedy; far right, the tokens nearly alike. It starts at the problem's own T, which a
// mark under the scale names, and a button brings it back there. The probabilities are
// sampling.js's (the port of kinds/sampling/engine.py), the numbers numbers.js's fmt.
//
// samplingSlider(container, problem, messages): problem as practice/data.py's
// sampling_widget_data gives it ({id, tokens, logits, temperature, top_k, top_p, decimals}; a
// token top-k or top-p cuts at the T shown is said so in words); messages, the catalogue's
// "slider." entries ({placeholders} filled here, Korean particles by particles.js when loaded).
// Returns {element, temperature(), set(T)}; set(null) is T → 0.
//
// Test contract: figure[data-slider] holding input[type=range][data-slider-input] (its
// aria-valuetext the T shown), [data-slider-value] (the T shown, as text), [data-problem-mark],
// [data-cut-note] (a problem with top-k or top-p: what "cut" means),
// button[data-action=problem-t], and one tr[data-token] a token with data-probability (the
// exact number) and data-kept ("false": cut by top-k or top-p at this T); figure's
// data-temperature is the T in use ("0": T → 0).
(function (AT) {
  "use strict";

  const LOW = 0.05, HIGH = 20, POSITIONS = 120;  // 120 steps of about 5% each, position 0 is T → 0
  let made = 0;

  function samplingSlider(container, problem, messages) {
    const { sampling, numbers } = AT;
    const t = (key, args) => {
      const template = messages[key];
      if (template === undefined) throw new Error("no message " + key);
      const fill = (text) => (args ? text.replace(/\{(\w+)\}/g, (whole, name) => (name in args ? String(args[name]) : whole)) : text);
      return AT.particles ? AT.particles.resolve(template, fill) : fill(template);
    };
    const el = (tag, attrs, ...children) => {
      const node = document.createElement(tag);
      for (const [name, value] of Object.entries(attrs || {})) {
        if (value === null || value === undefined || value === false) continue;
        if (name === "text") node.textContent = value;
        else node.setAttribute(name, value === true ? "" : value);
      }
      for (const child of children) if (child !== null && child !== undefined) node.append(child);
      return node;
    };

    const decimals = problem.decimals === undefined || problem.decimals === null ? 3 : problem.decimals;
    const own = problem.temperature;
    const low = Math.min(LOW, own), high = Math.max(HIGH, own);
    const span = Math.log(high / low);
    // position 1 .. POSITIONS on the log scale, two significant digits: the T shown is the T used
    const positionOf = (temperature) =>
      temperature === null ? 0 : 1 + Math.round((Math.log(temperature / low) / span) * (POSITIONS - 1));
    const ownPosition = positionOf(own);  // the problem's T is on the scale: the keys come back to it exactly
    const atPosition = (k) =>
      k <= 0 ? null : k === ownPosition ? own : Number((low * Math.exp((span * (k - 1)) / (POSITIONS - 1))).toPrecision(2));
    const shownT = (temperature) => (temperature === null ? t("slider.zero") : t("slider.value", { temperature: numbers.fmtGiven(temperature, 3) }));

    // The probabilities at T; T → 0 (null): the limit, the largest logits sharing 1.
    function probabilitiesAt(temperature) {
      if (temperature !== null) return sampling.softmax(sampling.scale(problem.logits, temperature));
      const top = Math.max(...problem.logits);
      const tied = problem.logits.filter((z) => z === top).length;
      return problem.logits.map((z) => (z === top ? 1 / tied : 0));
    }

    const id = "slider-" + (++made);
    const input = el("input", { type: "range", id, min: "0", max: String(POSITIONS), step: "1",
      value: String(ownPosition), "data-slider-input": true, list: id + "-marks", "aria-describedby": id + "-note" });
    const marks = el("datalist", { id: id + "-marks" }, el("option", { value: String(ownPosition) }));
    const value = el("p", { class: "slider-value", "data-slider-value": true });
    const mark = el("p", { class: "slider-mark", "data-problem-mark": true, text: t("slider.problem_mark", { temperature: numbers.fmtGiven(own, 3) }) });
    mark.style.setProperty("--at", (100 * ownPosition / POSITIONS).toFixed(2) + "%");
    const back = el("button", { type: "button", class: "secondary", "data-action": "problem-t", text: t("slider.back") });
    const ends = el("p", { class: "slider-ends", "aria-hidden": "true" },
      el("span", { text: t("slider.zero") }), el("span", { text: t("slider.value", { temperature: numbers.fmtGiven(high, 3) }) }));
    const caption = el("caption", {});
    const body = el("tbody", {});
    const table = el("table", { class: "bars slider-bars" }, caption,
      el("thead", {}, el("tr", {}, el("th", { scope: "col", text: t("slider.token") }),
        el("th", { scope: "col", colspan: "2", text: t("slider.probability") }))),
      body);
    const rows = problem.tokens.map((token) => {
      const bar = el("span", { class: "bar" });
      const number = el("td", { class: "pct" });
      const row = el("tr", { "data-token": token }, el("th", { scope: "row", text: token }), el("td", { class: "barcell" }, bar), number);
      body.append(row);
      return { row, bar, number };
    });
    // top-k or top-p, as the problem writes it: the rule a token marked "cut" is outside of
    const rule = problem.top_k != null ? `top-k = ${problem.top_k}` : problem.top_p != null ? `top-p = ${numbers.fmtGiven(problem.top_p, 3)}` : null;
    const figure = el("figure", { class: "slider", "data-slider": true },
      el("figcaption", { text: t("slider.caption") }),
      el("div", { class: "slider-control" },
        el("label", { for: id, text: t("slider.label") }), input, marks, ends, mark, value, back),
      el("p", { class: "note", id: id + "-note", text: t("slider.note") }),
      table,
      rule === null ? null : el("p", { class: "note", "data-cut-note": true, text: t("slider.cut_note", { rule }) }));
    container.append(figure);

    let current = own;
    function draw(temperature) {
      current = temperature;
      const probabilities = probabilitiesAt(temperature);
      const keep = temperature === null || (problem.top_k == null && problem.top_p == null)
        ? null : sampling.keptSet(probabilities, problem.top_k, problem.top_p);
      const text = shownT(temperature);
      input.setAttribute("aria-valuetext", text);
      value.textContent = temperature === own ? `${text} — ${t("slider.is_problem_t")}` : text;
      caption.textContent = temperature === null ? t("slider.table_zero") : t("slider.table", { temperature: numbers.fmtGiven(temperature, 3) });
      figure.dataset.temperature = temperature === null ? "0" : String(temperature);
      probabilities.forEach((p, i) => {
        const { row, bar, number } = rows[i];
        bar.style.width = (Math.max(0, Math.min(1, p)) * 100).toFixed(2) + "%";
        const kept = keep === null || keep.has(i);
        number.textContent = numbers.fmt(p, decimals) + (kept ? "" : ` (${t("slider.cut")})`);
        row.dataset.probability = String(p);
        row.dataset.kept = String(kept);
        row.classList.toggle("cut", !kept);
      });
    }
    input.addEventListener("input", () => draw(atPosition(Number(input.value))));
    back.addEventListener("click", () => {
      input.value = String(ownPosition);
      draw(own);
      input.focus();
    });
    draw(own);
    return {
      element: figure,
      temperature: () => current,
      set(temperature) {
        input.value = String(positionOf(temperature));
        draw(temperature);
      },
    };
  }

  AT.samplingSlider = samplingSlider;
})(globalThis.AttnTutor = globalThis.AttnTutor || {});
