// The practice page: the chapter's widget for every problem, practice as in `attn-tutor quiz`
// (practice mode), and the answer file `attn-tutor grade` reads. Reads the JSON in
// <script id="page-data"> (attn_tutor/practice/data.py; the packed variants in
// script#page-variants, read when one is chosen); marks with marking.js, parses with
// answers.js. No network: nothing here fetches, and the page's CSP forbids it anyway.
//
// Test contract (README): section[data-problem], button[data-query], SVG line[data-key]
// [data-head][data-weight], [data-row] > [data-stage-block] holding input[data-stage],
// and after marking data-verdict/data-points/data-diagnosis on the stage block and
// data-verdict on each marked cell (td[data-cell]); input[data-field=student],
// select[data-field=variant], button[data-action=save|check|hint|restart]; concept items as
// section[data-concept] holding button[data-option], data-verdict on the section and on each chosen option
// (a live page's hooks.checked gets {concept, text, node} for each concept item chosen; an exam marks none).
//
// Hooks (AT.hooks, set before this script starts; `attn-tutor serve`'s live page,
// attn_tutor/live/assets/live.js): checked({problem, row, stage, text, node}) after a stage
// is checked; ready() after the page is first drawn; exam: true for a page that carries no
// answers (no figure, no hints, no marks, no score: the server marks and tells later);
// live: true for a page whose answers are kept by the server (no unsaved-answers warning).
(function (AT) {
  "use strict";

  const { answers, marking, numbers, particles } = AT;
  const SVG = "http://www.w3.org/2000/svg";
  let data, M;
  let hooks = {};
  const state = { variant: 0, rows: {}, concepts: {} };
  const SCORE_PLACES = 2;  // points and scores as shown, as everywhere (attn_tutor/gradebook/rows.py)

  // --- small helpers --------------------------------------------------------------------

  function t(key, args) {
    const template = M[key];
    if (template === undefined) throw new Error("no message " + key);
    const fill = (text) => (args ? text.replace(/\{(\w+)\}/g, (whole, name) => (name in args ? String(args[name]) : whole)) : text);
    return particles.resolve(template, fill);  // 을/를 and the like chosen for the text before them
  }

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (name === "text") node.textContent = value;
      else node.setAttribute(name, value === true ? "" : value);
    }
    for (const child of children) if (child !== null && child !== undefined) node.append(child);
    return node;
  }

  function svg(tag, attrs) {
    const node = document.createElementNS(SVG, tag);
    for (const [name, value] of Object.entries(attrs || {})) {
      if (name === "text") node.textContent = value;
      else node.setAttribute(name, value);
    }
    return node;
  }

  const problems = () => data.variants[state.variant].problems;
  const rowKey = (p, row) => (p.key || p.id) + "\u0000" + row;  // key: a live page's variant of a problem ("another like this")
  const toNumbers = (values) => values.map((v) => (v === null ? NaN : v));

  // The problem as marking.js reads it: null (masked, or not representable) becomes NaN.
  function solutionOf(p) {
    if (p._solution) return p._solution;
    const numbered = (rows) => (rows ? rows.map(toNumbers) : rows);  // an exam page carries none
    const heads = p.heads.map((h) => ({
      Q: h.Q, K: h.K, V: h.V, raw: h.raw, d_k: h.d_k, divisor: h.divisor, mask: h.mask,
      scores: numbered(h.scores), scaled: numbered(h.scaled), weights: numbered(h.weights),
    }));
    p._solution = {
      id: p.id, tokens: p.tokens, heads, output: p.output, tolerances: p.tolerances, windows: p.windows, bounds: p.bounds,
      divide_by: p.divide_by, decimals: p.decimals, stages: p.stages, asked_stages: p.asked_stages,
    };
    return p._solution;
  }

  // quiz.parse_answer: the row in full; masked cells left out are filled in with 0.
  function parseAnswer(solution, row, stage, text) {
    const values = answers.parseRow(text);
    const width = marking.rowWidth(solution, stage);
    if (values.length === width) return values;
    const open = marking.openCells(solution, row, stage);
    const openCount = open.filter(Boolean).length;
    if (stage !== "output" && openCount < width && values.length === openCount) {
      let k = 0;
      return open.map((isOpen) => (isOpen ? values[k++] : 0.0));
    }
    if (stage !== "output" && openCount < width) {
      throw new answers.AnswerError("quiz.wrong_count_masked", { given: values.length, expected: width, open: openCount });
    }
    throw new answers.AnswerError("quiz.wrong_count", { given: values.length, expected: width });
  }

  // --- hints (quiz.hint_blocks) ---------------------------------------------------------

  function power(x, decimals) {
    const text = numbers.fmt(x, decimals);
    return text.startsWith("-") ? `e^(${text})` : `e^${text}`;
  }

  // One cell's arithmetic on the student's own previous row, as the quiz writes it (quiz.hint_blocks
  // with explain's lines: "≈" where the numbers shown do not give the result): head `h`, the
  // `index`-th open key (scaled, weights) or output component `index`.
  function ownHintLine(p, row, stage, basis, h = 0, index = 0) {
    const solution = solutionOf(p);
    const head = solution.heads[h];
    const d = p.decimals;
    const before = marking.previousStage(stage);
    const seg = marking.segments(solution, before)[h];
    const own = basis.slice(seg[0], seg[1]);
    const mask = head.mask[row];
    const openKeys = mask.map((m, j) => (m ? j : -1)).filter((j) => j >= 0);
    const { fmt, fmtGiven, resultSign, quotient, dot } = numbers;
    if (stage === "scaled") {
      const j = openKeys[index];
      const s = fmtGiven(own[j], d);
      const value = own[j] / head.divisor;
      const root = Math.floor(Math.sqrt(head.d_k));
      let divisor, left;
      if (p.divide_by !== null) {
        divisor = fmtGiven(head.divisor, d);
        left = `${s} / ${divisor}`;
      } else if (root * root === head.d_k) {
        divisor = String(root);
        left = `${s} / √${head.d_k} = ${s} / ${root}`;
      } else {
        divisor = fmt(head.divisor, d);
        left = `${s} / √${head.d_k} = ${s} / ${divisor}`;
      }
      return `${left} ${resultSign(quotient(s, divisor), value, d)} ${fmt(value, d)}`;
    }
    if (stage === "weights") {
      const j = openKeys[index];
      const scaled = own.map((v, k) => (mask[k] ? v : NaN));
      const exps = marking.studentExps(scaled.map((v, k) => (mask[k] ? v : 0)), mask);
      const total = marking.npSum(exps);
      const weights = marking.softmax(scaled.map((v, k) => (mask[k] ? v : 0)), mask);
      const denominator = openKeys.map((k) => power(scaled[k], d)).join(" + ");
      let middle = "", sign = "=";
      if (Number.isFinite(total)) {
        const top = fmt(exps[j], d), bottom = fmt(total, d);
        middle = ` = ${top} / ${bottom}`;
        sign = resultSign(quotient(top, bottom), weights[j], d);
      }
      return `${power(scaled[j], d)} / (${denominator})${middle} ${sign} ${fmt(weights[j], d)}`;
    }
    const column = head.V.map((v) => v[index]);
    const pairs = own.map((w, j) => (mask[j] || w !== 0 ? [fmtGiven(w, d), fmtGiven(column[j], d)] : null)).filter((x) => x !== null);
    const value = marking.mix(own, head.V)[index];
    return `${pairs.map(([w, v]) => `${w}×${v}`).join(" + ")} ${resultSign(dot(pairs), value, d)} ${fmt(value, d)}`;
  }

  // explain.APPROX_NOTE under a line that uses ≈
  const approxNote = (line) => (line.includes(` ${numbers.APPROX} `) ? el("p", { class: "note", text: t("solve.approx_note") }) : null);

  // quiz.hint_blocks: 1, the formula; 2, 3, ...: the next cell's arithmetic along the row; then nothing more.
  function hintContent(p, row, stage, level, basis) {
    if (level <= 1) return [el("p", { text: t(`quiz.hint.${stage}`, { token: p.tokens[row], divisor: p.divisors }) })];
    const walk = p.hint_walk[stage][row];
    if (level - 2 >= walk.length) return [el("p", { text: t("quiz.hint.no_more") })];
    const [cell, h, index] = walk[level - 2];
    if (basis === null || basis === undefined) {
      const exact = p.hints[row][stage][level - 2];
      return [el("p", { text: exact.title }), el("pre", { text: exact.line }), approxNote(exact.line)];
    }
    const line = ownHintLine(p, row, stage, basis, h, index);
    const title = t("quiz.hint.cell_own", { n: cell + 1, label: p.labels[stage][cell] });
    return [el("p", { text: title }), el("pre", { text: line }), approxNote(line)];
  }

  // --- the widget -------------------------------------------------------------------------

  function drawFigure(p, h, row) {
    const head = p.heads[h];
    const keys = p.keys;
    const weights = head.weights[row];
    const mask = head.mask[row];
    const step = 34;
    const height = Math.max(keys.length, 1) * step + 12;
    const width = 340;
    const box = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", class: "lines" });
    box.append(svg("title", { text: t("page.lines_note", { token: p.tokens[row] }) }));
    const qy = height / 2;
    const qx = 100, kx = 230;
    keys.forEach((key, j) => {
      const y = 6 + step * j + step / 2;
      const w = weights[j];
      const line = svg("line", {
        x1: qx, y1: qy, x2: kx, y2: y,
        "stroke-width": (mask[j] ? 0.75 + 11 * w : 1).toFixed(2),
        "stroke-opacity": (mask[j] ? 0.12 + 0.88 * w : 0.5).toFixed(3),
        class: mask[j] ? "weight" : "weight masked",
        "data-key": key, "data-head": String(h), "data-weight": String(w),
      });
      if (!mask[j]) line.setAttribute("data-masked", "");
      box.append(line);
      box.append(svg("circle", { cx: kx, cy: y, r: 4, class: "node" }));
      box.append(svg("text", { x: kx + 10, y: y + 5, class: "key", text: key + (mask[j] ? "" : ` (${t("page.masked")})`) }));
    });
    box.append(svg("circle", { cx: qx, cy: qy, r: 5, class: "node query" }));
    box.append(svg("text", { x: qx - 10, y: qy + 5, "text-anchor": "end", class: "query", text: p.tokens[row] }));
    const bars = el("table", { class: "bars" });
    const texts = head.rows[row];
    keys.forEach((key, j) => {
      const bar = el("span", { class: "bar" });
      bar.style.width = (mask[j] ? Math.max(0, Math.min(1, weights[j])) * 100 : 0) + "%";
      bars.append(el("tr", {},
        el("th", { scope: "row", text: key }),
        el("td", { class: "barcell" }, bar),
        el("td", { class: mask[j] ? "pct" : "pct masked", text: mask[j] ? texts.percent[j] : "—" })));
    });
    const title = p.heads.length > 1 ? `${t("solve.head", { n: h + 1 })}: ` : "";
    return el("figure", { class: "figure", "data-figure-head": String(h) },
      el("figcaption", { text: title + t("solve.bars", { token: p.tokens[row] }) }),
      el("div", { class: "figure-body" }, box, bars));
  }

  function cellWork(text, work) {
    if (!work) return el("td", { class: text === "—" ? "masked" : null, text });
    return el("td", {}, el("details", { class: "cell-work" }, el("summary", { text }), el("div", { class: "work", text: work }), approxNote(work)));
  }

  function stageTables(p, row) {
    const parts = [];
    const many = p.heads.length > 1;
    const prefix = (h) => (many ? `${t("solve.head", { n: h + 1 })}: ` : "");
    const keyHeader = () => el("tr", {}, el("th", { scope: "col", text: t("solve.query_key") }), ...p.keys.map((k) => el("th", { scope: "col", text: k })));
    const projection = p.projection[String(row)];
    if (projection && projection.length) {
      parts.push(el("figure", { class: "work" }, el("figcaption", { text: t("page.projection") }), el("pre", { text: projection.join("\n") })));
    }
    const stages = [["scores", "scores"], ["scaled", "scaled"], ["exps", null], ["weights", "weights"]];
    p.heads.forEach((head, h) => {
      const texts = head.rows[row];
      for (const [name, stage] of stages) {
        if (name === "exps") {
          const header = el("tr", {}, el("th", { scope: "col", text: t("solve.query_key") }), ...p.keys.map((k) => el("th", { scope: "col", text: k })), el("th", { scope: "col", text: t("solve.sum") }));
          const body = el("tr", {}, el("th", { scope: "row", text: p.tokens[row] }), ...texts.exps.map((x) => cellWork(x, null)), el("td", { class: "sum", text: texts.exp_sum }));
          parts.push(el("figure", { class: "stage-table", "data-exact": "exps" }, el("figcaption", { text: prefix(h) + t("solve.exps") }), el("div", { class: "scroll" }, el("table", {}, el("thead", {}, header), el("tbody", {}, body)))));
          continue;
        }
        const title = name === "scaled" ? t("solve.scaled", { divisor: head.divisor_label }) : t(`solve.${name}`);
        const body = el("tr", {}, el("th", { scope: "row", text: p.tokens[row] }),
          ...texts[name].map((x, j) => cellWork(x, texts.explain[name][j])));
        parts.push(el("figure", { class: "stage-table", "data-exact": name }, el("figcaption", { text: prefix(h) + title }),
          el("div", { class: "scroll" }, el("table", {}, el("thead", {}, keyHeader()), el("tbody", {}, body)))));
      }
    });
    if (p.output_text) {
      const width = p.output_text[row].length;
      const header = el("tr", {}, el("td", {}), ...Array.from({ length: width }, (_, c) => el("th", { scope: "col", text: String(c + 1) })));
      const owner = [];
      p.heads.forEach((head, h) => head.V[0].forEach(() => owner.push(h)));  // the head each output cell comes from
      const body = el("tr", {}, el("th", { scope: "row", text: p.tokens[row] }),
        ...p.output_text[row].map((x, c) => cellWork(x, (many ? `[${owner[c] + 1}] ` : "") + p.heads[owner[c]].rows[row].explain.output)));
      parts.push(el("figure", { class: "stage-table", "data-exact": "output" }, el("figcaption", { text: t("solve.output") }),
        el("div", { class: "scroll" }, el("table", {}, el("thead", {}, header), el("tbody", {}, body)))));
    }
    return parts;
  }

  function buildWidget(p) {
    const root = el("div", { class: "widget" });
    const buttons = el("div", { class: "queries", role: "group", "aria-label": t("page.pick_query") });
    const view = el("div", { class: "view", "aria-live": "polite" });
    const choose = (row, focus) => {
      buttons.querySelectorAll("button").forEach((b, i) => {
        b.setAttribute("aria-pressed", i === row ? "true" : "false");
        b.tabIndex = i === row ? 0 : -1;
        if (i === row && focus) b.focus();
      });
      view.replaceChildren(
        el("p", { class: "note", text: t("page.lines_note", { token: p.tokens[row] }) }),
        el("div", { class: "figures" }, ...p.heads.map((_, h) => drawFigure(p, h, row))),
        el("details", { class: "working" }, el("summary", { text: t("page.working", { token: p.tokens[row] }) }), ...stageTables(p, row)),
      );
    };
    p.tokens.forEach((token, i) => {
      const button = el("button", { type: "button", class: "query-button", "data-query": token, "aria-pressed": "false", text: token });
      button.addEventListener("click", () => choose(i, false));
      button.addEventListener("keydown", (event) => {
        const n = p.tokens.length;
        const moves = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
        if (event.key in moves) {
          event.preventDefault();
          choose((i + moves[event.key] + n) % n, true);
        } else if (event.key === "Home" || event.key === "End") {
          event.preventDefault();
          choose(event.key === "Home" ? 0 : n - 1, true);
        }
      });
      buttons.append(button);
    });
    root.append(el("h3", { text: t("page.widget") }), el("p", { class: "pick", text: t("page.pick_query") }), buttons, view);
    choose(p.asked_rows.length ? p.asked_rows[0] : 0, false);
    return root;
  }

  // --- practice (quiz.run in practice mode, one row at a time) ---------------------------

  function rowState(p, row) {
    const key = rowKey(p, row);
    if (!state.rows[key]) state.rows[key] = { items: {}, typed: {}, hints: {}, own: {}, hintBasis: {}, next: 0 };
    return state.rows[key];
  }

  // Walk the stages that are not asked (quiz.run: advance with no answer), up to the next asked one.
  function skipUnasked(p, row, rs) {
    const solution = solutionOf(p);
    while (rs.next < p.stages.length && !p.asked_stages.includes(p.stages[rs.next])) {
      if (!hooks.exam) rs.own = marking.advance(solution, row, p.stages[rs.next], null, rs.own, "practice");
      rs.hintBasis = rs.own;
      rs.next += 1;
    }
  }

  function feedback(p, row, item) {
    const d = p.decimals;
    const labels = p.labels[item.stage];
    const lines = [el("p", { class: "verdict", text: t("quiz.verdict", { verdict: t(`grading.verdict.${item.verdict}`), points: numbers.fmtGiven(item.points, SCORE_PLACES) }) })];
    item.cells.forEach((cell, i) => {
      if (cell !== "wrong" && cell !== "follow_through") return;
      const args = { n: i + 1, label: labels[i], given: numbers.fmtGiven(item.given[i], d), expected: numbers.fmtGiven(item.expected[i], d) };
      if (cell === "wrong") lines.push(el("p", { class: "cell-off", text: t("quiz.cell_off", args) }));
      else lines.push(el("p", { class: "cell-follow", text: t("quiz.cell_follow", Object.assign({ carried: numbers.fmtGiven(item.carried[i], d) }, args)) }));
    });
    if (item.diagnosis !== null) lines.push(el("p", { class: "diagnosis", "data-diagnosis": item.diagnosis, text: marking.explanation(item, t) }));
    if (item.early) lines.push(el("p", { class: "early-rounding", "data-note": "early-rounding", text: t("quiz.early_rounding_note", { sentence: marking.roundingSentence(item.early, t) }) }));
    if (item.verdict !== "correct") lines.push(el("p", { text: t("quiz.go_on") }));
    const head = el("tr", {}, el("td", {}), ...labels.map((l) => el("th", { scope: "col", text: l })));
    const yours = el("tr", {}, el("th", { scope: "row", text: t("page.your_row") }), ...item.cells.map((cell, i) => {
      const td = el("td", { "data-cell": String(i), class: "cell " + cell, text: cell === "masked" ? "—" : numbers.fmtGiven(item.given[i], d) });
      if (cell !== "masked") td.setAttribute("data-verdict", cell);
      td.title = t(`grading.verdict.${cell === "masked" ? "missing" : cell}`);
      return td;
    }));
    // as the quiz's stage table: scores are sums of products of the givens, whole numbers stay whole
    const shown = item.stage === "scores" ? numbers.fmtGiven : numbers.fmt;
    const exact = el("tr", {}, el("th", { scope: "row", text: t("page.exact_row") }), ...item.expected.map((v) => el("td", { class: v === null ? "masked" : null, text: v === null ? "—" : shown(v, d) })));
    lines.push(el("div", { class: "scroll" }, el("table", { class: "marked" }, el("thead", {}, head), el("tbody", {}, yours, exact))));
    return lines;
  }

  function buildRow(p, row) {
    const solution = solutionOf(p);
    const rs = rowState(p, row);
    const token = p.tokens[row];
    const block = el("div", { class: "practice-row", "data-row": token });
    block.append(el("h4", { text: t("quiz.row", { token }) }));
    const blocks = {};
    const refresh = () => {
      for (const stage of p.asked_stages) {
        const b = blocks[stage];
        const index = p.stages.indexOf(stage);
        const marked = stage in rs.items;
        const open = !marked && index === rs.next;
        b.input.disabled = !open;
        b.check.disabled = !open;
        b.hint.disabled = !open;
        b.node.classList.toggle("waiting", !marked && !open);
      }
    };
    const check = (stage) => {
      const b = blocks[stage];
      const text = b.input.value;
      const command = answers.command(text);  // the quiz's rule (answers.command)
      rs.typed[stage] = text;
      if (command === "hint") {
        b.input.value = "";
        return hint(stage);
      }
      if (command === "empty") {
        b.message.replaceChildren(b.hints, el("p", { class: "error", text: t("quiz.empty") }));
        return;
      }
      let values;
      try {
        values = parseAnswer(solution, row, stage, text);
      } catch (error) {
        if (!(error instanceof answers.AnswerError)) throw error;
        b.message.replaceChildren(b.hints, el("p", { class: "error", "data-error": error.key, text: t(error.key, error.args) }));
        return;
      }
      const next = () => {
        const nextStage = p.stages[rs.next];
        if (nextStage && blocks[nextStage]) blocks[nextStage].input.focus();
      };
      if (hooks.exam) {  // kept, not marked here: the server marks it and says so when the problem closes
        rs.items[stage] = { stage, given: values, verdict: null, points: 0 };
        rs.next = p.stages.indexOf(stage) + 1;
        skipUnasked(p, row, rs);
        b.message.replaceChildren(el("p", { class: "note", text: t("page.exam_kept") }));
        refresh();
        if (hooks.checked) hooks.checked({ problem: p.id, variant: p.variant, row: token, stage, text, node: b.node });
        next();
        return;
      }
      const item = marking.markStage(solution, row, stage, values, rs.own, { hints: rs.hints[stage] || 0 });
      item.early = marking.earlyRounding(solution, row, item, rs.own);  // practice's note (marks unchanged)
      rs.items[stage] = item;
      rs.own = marking.advance(solution, row, stage, values, rs.own, "practice");
      rs.hintBasis = item.verdict === "correct" || item.verdict === "follow_through" ? rs.own : {};
      rs.next = p.stages.indexOf(stage) + 1;
      skipUnasked(p, row, rs);
      b.node.setAttribute("data-verdict", item.verdict);
      b.node.setAttribute("data-points", String(item.points));
      b.node.setAttribute("data-diagnosis", item.diagnosis || "");
      b.message.replaceChildren(b.hints, ...feedback(p, row, item));
      refresh();
      if (hooks.checked) hooks.checked({ problem: p.id, variant: p.variant, row: token, stage, text, node: b.node });
      next();
      updateScore();
    };
    const hint = (stage) => {
      rs.hints[stage] = (rs.hints[stage] || 0) + 1;
      const before = marking.previousStage(stage);
      const basis = before !== null && before in rs.hintBasis ? rs.hintBasis[before] : null;
      const b = blocks[stage];
      b.node.setAttribute("data-hints", String(rs.hints[stage]));
      // each hint below the ones before, as the quiz prints them one after another
      b.hints.append(el("div", { class: "hint", "data-hint": String(rs.hints[stage]) }, ...hintContent(p, row, stage, rs.hints[stage], basis)));
      if (b.hints.parentNode !== b.message) b.message.prepend(b.hints);
    };
    for (const stage of p.asked_stages) {
      const id = `in-${state.variant}-${p.key || p.id}-${row}-${stage}`.replace(/[^\w-]/g, (c) => "_" + c.codePointAt(0));
      const labels = p.labels[stage];
      const ask = stage === "output"
        ? t("quiz.ask_output", { token, count: labels.length, cells: labels.join(", ") })
        : t("quiz.ask", { token, count: labels.length, cells: labels.join(", ") });
      const masked = stage !== "output" && marking.openCells(solution, row, stage).includes(false);
      const input = el("input", { id, type: "text", "data-stage": stage, autocomplete: "off", autocapitalize: "off", spellcheck: "false", enterkeyhint: "done" });
      const checkButton = el("button", { type: "button", "data-action": "check", text: t("page.check") });
      const hintButton = el("button", { type: "button", "data-action": "hint", class: "secondary", text: t("page.hint"), hidden: hooks.exam });
      const hints = el("div", { class: "hints" });
      const message = el("div", { class: "message", "aria-live": "polite" }, hints);
      const node = el("div", { class: "stage", "data-stage-block": stage },
        el("label", { for: id }, el("strong", { text: p.titles[stage] }),
          el("span", { text: ` ${ask} ${t("quiz.ask_decimals", { decimals: p.decimals })}` }),
          masked ? el("span", { class: "note", text: " " + t("quiz.ask_masked") }) : null),
        el("div", { class: "answer-line" }, input, checkButton, hintButton), message);
      input.value = rs.typed[stage] || "";
      input.addEventListener("keydown", (event) => { if (event.key === "Enter") { event.preventDefault(); check(stage); } });
      input.addEventListener("input", () => { rs.typed[stage] = input.value; });
      checkButton.addEventListener("click", () => check(stage));
      hintButton.addEventListener("click", () => hint(stage));
      blocks[stage] = { node, input, check: checkButton, hint: hintButton, message, hints };
      block.append(node);
      const item = rs.items[stage];
      if (item && hooks.exam) {
        message.replaceChildren(el("p", { class: "note", text: t("page.exam_kept") }));
      } else if (item) {
        node.setAttribute("data-verdict", item.verdict);
        node.setAttribute("data-points", String(item.points));
        node.setAttribute("data-diagnosis", item.diagnosis || "");
        message.replaceChildren(...feedback(p, row, item));
      }
    }
    const restart = el("button", { type: "button", class: "secondary", "data-action": "restart", text: t("page.restart") });
    restart.addEventListener("click", () => {
      delete state.rows[rowKey(p, row)];
      block.replaceWith(buildRow(p, row));
      updateScore();
    });
    block.append(restart);
    skipUnasked(p, row, rs);
    refresh();
    return block;
  }

  function buildPractice(p) {
    const root = el("div", { class: "practice" });
    root.append(el("h3", { text: t("page.practice") }));
    for (const row of p.asked_rows) root.append(buildRow(p, row));
    return root;
  }

  // <kind sampling> (the lines to </kind sampling> are left out of a page with no sampling problem: practice/page.py for_kinds)
  // --- a sampling problem (kind: sampling; practice/data.py sampling_data, marked by sampling_marking.js) ---
  //
  // Test contract: section[data-problem][data-kind=sampling] holding p[data-settings], the slider
  // (temperature.js: figure[data-slider]), div[data-row=""] > [data-stage-block=<stage>] each with
  // input[data-stage] (pick: a token, its list the problem's tokens) and, once checked, data-verdict, data-points,
  // data-diagnosis on the block, td[data-cell][data-verdict] per cell, p[data-diagnosis]; and
  // details[data-solution] (the worked solution, shown when opened).

  const SIGNS = { correct: "✓", follow_through: "↪", wrong: "✗" };  // beside the colour: never colour alone

  function samplingShown(p, value) {
    if (typeof value === "string") return value;
    return value === null || value === undefined ? t("solve.sampling.cut") : numbers.fmtGiven(value, p.decimals);
  }

  // quiz/sampling.py parse_answer: the token picked, or a row of numbers in token order.
  function samplingParse(p, stage, text) {
    if (stage === "pick") {
      const token = text.trim();
      if (!p.tokens.includes(token)) throw new answers.AnswerError("quiz.sampling.not_a_token", { token, tokens: p.tokens.join(", ") });
      return [token];
    }
    const values = answers.parseRow(text);
    const expected = p.counts[stage];
    if (values.length !== expected) throw new answers.AnswerError("quiz.wrong_count", { given: values.length, expected });
    return values;
  }

  // quiz/sampling.py feedback_blocks: the verdict, each cell off, the mistake named and explained, your row and the exact one.
  function samplingFeedback(p, item) {
    const labels = p.labels[item.stage];
    const lines = [el("p", { class: "verdict", text: t("quiz.verdict", { verdict: t(`grading.verdict.${item.verdict}`), points: numbers.fmtGiven(item.points, SCORE_PLACES) }) })];
    item.cells.forEach((cell, i) => {
      if ((cell !== "wrong" && cell !== "follow_through") || item.given === null) return;
      const args = { n: i + 1, label: labels[i], given: samplingShown(p, item.given[i]), expected: samplingShown(p, item.expected[i]) };
      if (cell === "wrong") lines.push(el("p", { class: "cell-off", text: t("quiz.cell_off", args) }));
      else lines.push(el("p", { class: "cell-follow", text: t("quiz.cell_follow", Object.assign({ carried: samplingShown(p, item.carried ? item.carried[i] : null) }, args)) }));
    });
    if (item.diagnosis !== null) {
      lines.push(el("p", { class: "diagnosis", "data-diagnosis": item.diagnosis,
        text: `${t(`grading.diagnosis_name.${item.diagnosis}`)}: ${t(`grading.diagnosis.${item.diagnosis}`)}` }));
    }
    if (item.verdict !== "correct") lines.push(el("p", { text: t("quiz.go_on") }));
    const head = el("tr", {}, el("td", {}), ...labels.map((l) => el("th", { scope: "col", text: l })));
    const yours = el("tr", {}, el("th", { scope: "row", text: t("page.your_row") }), ...item.cells.map((cell, i) => {
      const td = el("td", { "data-cell": String(i), class: "cell " + cell });
      const verdict = t(`grading.verdict.${cell === "masked" ? "missing" : cell}`);
      td.append(cell === "masked" ? "—" : samplingShown(p, item.given[i]));
      if (cell !== "masked") {
        td.setAttribute("data-verdict", cell);
        td.append(" ", el("span", { class: "sign", "aria-hidden": "true", text: SIGNS[cell] || "" }), el("span", { class: "visually-hidden", text: ` (${verdict})` }));
      }
      td.title = verdict;
      return td;
    }));
    const exact = el("tr", {}, el("th", { scope: "row", text: t("page.exact_row") }), ...item.expected.map((v) => el("td", { class: v === null ? "masked" : null, text: v === null ? "—" : samplingShown(p, typeof v === "string" ? v : numbers.fmt(v, p.decimals)) })));
    // a region of its own, reached by Tab, for a row wider than a phone (scrolled by the keyboard too)
    lines.push(el("div", { class: "scroll", tabindex: "0", role: "region", "aria-label": p.titles[item.stage] },
      el("table", { class: "marked" }, el("thead", {}, head), el("tbody", {}, yours, exact))));
    return lines;
  }

  function samplingAsk(p, stage) {
    const labels = p.labels[stage];
    if (stage === "pick") return t("quiz.sampling.ask_pick", { tokens: p.tokens.join(", ") });
    let ask = labels.length > 1 ? t("quiz.sampling.ask", { count: labels.length, cells: labels.join(", ") }) : t("quiz.sampling.ask_one", { cell: labels[0] });
    ask += " " + t("quiz.ask_decimals", { decimals: p.decimals });
    if (stage === "kept") ask += " " + t("quiz.sampling.ask_kept");
    return ask;
  }

  // Practice as `attn-tutor quiz` does it for a sampling problem: the asked stages in order, each checked
  // by sampling_marking.js, follow-through from the stage the student typed just before (practice mode).
  function buildSamplingPractice(p) {
    const SM = AT.samplingMarking;
    const rs = rowState(p, 0);
    const root = el("div", { class: "practice" }, el("h3", { text: t("page.practice") }));
    const block = el("div", { class: "practice-row", "data-row": "" });
    const blocks = {};
    const asked = p.asked_stages;
    const refresh = () => {
      asked.forEach((stage, index) => {
        const b = blocks[stage];
        const open = !(stage in rs.items) && index === rs.next;
        b.input.disabled = !open;
        b.check.disabled = !open;
        b.hint.disabled = !open;
        b.node.classList.toggle("waiting", !(stage in rs.items) && !open);
      });
    };
    const show = (stage, item) => {
      const b = blocks[stage];
      if (hooks.exam) {
        b.message.replaceChildren(el("p", { class: "note", text: t("page.exam_kept") }));
        return;
      }
      b.node.setAttribute("data-verdict", item.verdict);
      b.node.setAttribute("data-points", String(item.points));
      b.node.setAttribute("data-diagnosis", item.diagnosis || "");
      b.message.replaceChildren(b.hints, ...samplingFeedback(p, item));
    };
    const check = (stage) => {
      const b = blocks[stage];
      const text = b.input.value;
      rs.typed[stage] = text;
      const command = stage === "pick" ? (text.trim() ? "answer" : "empty") : answers.command(text);
      if (command === "hint") {
        b.input.value = "";
        return hint(stage);
      }
      if (command === "empty") {
        b.message.replaceChildren(b.hints, el("p", { class: "error", "data-error": "quiz.empty", text: t("quiz.empty") }));
        return;
      }
      let values;
      try {
        values = samplingParse(p, stage, text);
      } catch (error) {
        if (!(error instanceof answers.AnswerError)) throw error;
        b.message.replaceChildren(b.hints, el("p", { class: "error", "data-error": error.key, text: t(error.key, error.args) }));
        return;
      }
      const item = hooks.exam ? { stage, given: values, verdict: null, points: 0 }
        : SM.markStage(p, stage, values, rs.own, { hints: rs.hints[stage] || 0 });
      rs.items[stage] = item;
      rs.own = { [stage]: values };  // practice: the next stage follows from this one as typed
      rs.next = asked.indexOf(stage) + 1;
      show(stage, item);
      refresh();
      if (hooks.checked) hooks.checked({ problem: p.id, variant: p.variant, row: "", stage, text, node: b.node });
      const nextStage = asked[rs.next];
      if (nextStage) blocks[nextStage].input.focus();
      updateScore();
    };
    const hint = (stage) => {
      rs.hints[stage] = (rs.hints[stage] || 0) + 1;
      const b = blocks[stage];
      b.node.setAttribute("data-hints", String(rs.hints[stage]));
      const count = rs.hints[stage], worked = (p.hints || {})[stage] || [];  // the rule, then the stage's worked lines one at a time (quiz/sampling.py hint)
      const text = count === 1 ? t(`quiz.sampling.hint.${stage}`) : count - 2 < worked.length ? worked[count - 2] : t("quiz.sampling.no_more_hints");
      b.hints.append(el("div", { class: "hint", "data-hint": String(rs.hints[stage]) }, el("p", { text })));
      if (b.hints.parentNode !== b.message) b.message.prepend(b.hints);
    };
    for (const stage of asked) {
      const id = `in-${state.variant}-${p.key || p.id}-${stage}`.replace(/[^\w-]/g, (c) => "_" + c.codePointAt(0));
      // the pick is typed as a token (as in the quiz), the problem's tokens offered as the field's list
      const input = el("input", { id, type: "text", "data-stage": stage, autocomplete: "off", autocapitalize: "off", spellcheck: "false", enterkeyhint: "done",
        ...(stage === "pick" ? { list: `${id}-tokens` } : { inputmode: "decimal" }) });
      const tokens = stage === "pick" ? [el("datalist", { id: `${id}-tokens` }, ...p.tokens.map((token) => el("option", { value: token })))] : [];
      const checkButton = el("button", { type: "button", "data-action": "check", text: t("page.check") });
      const hintButton = el("button", { type: "button", "data-action": "hint", class: "secondary", text: t("page.hint"), hidden: hooks.exam });
      const hints = el("div", { class: "hints" });
      const message = el("div", { class: "message", "aria-live": "polite" }, hints);
      const node = el("div", { class: "stage", "data-stage-block": stage },
        el("label", { for: id }, el("strong", { text: p.titles[stage] }), el("span", { text: ` ${samplingAsk(p, stage)}` })),
        el("div", { class: "answer-line" }, input, ...tokens, checkButton, hintButton), message);
      input.value = rs.typed[stage] || "";
      input.addEventListener("keydown", (event) => { if (event.key === "Enter") { event.preventDefault(); check(stage); } });
      input.addEventListener("input", () => { rs.typed[stage] = input.value; });
      checkButton.addEventListener("click", () => check(stage));
      hintButton.addEventListener("click", () => hint(stage));
      blocks[stage] = { node, input, check: checkButton, hint: hintButton, message, hints };
      block.append(node);
      if (rs.items[stage]) show(stage, rs.items[stage]);
    }
    const restart = el("button", { type: "button", class: "secondary", "data-action": "restart", text: t("page.restart") });
    restart.addEventListener("click", () => {
      delete state.rows[rowKey(p, 0)];
      root.replaceWith(buildSamplingPractice(p));
      updateScore();
    });
    block.append(restart);
    root.append(block);
    if (!hooks.exam) {
      const solution = el("div", { class: "solution" });
      solution.innerHTML = p.solution_html; // our own HTML, escaped by attn_tutor.render.html
      root.append(el("details", { class: "working", "data-solution": "" }, el("summary", { text: t("sampling_page.solution") }), solution));
    }
    refresh();
    return root;
  }

  // The problem's own numbers given, and the temperature slider beside them (issue 38, item 5).
  function buildSamplingWidget(p) {
    const root = el("div", { class: "widget" }, el("h3", { text: t("sampling_page.widget") }));
    if (p.slider && AT.samplingSlider) AT.samplingSlider(root, p.slider, M);
    return root;
  }

  function samplingParts(p) {
    const givens = el("div", { class: "givens" });
    givens.innerHTML = p.givens_html; // our own HTML, escaped by attn_tutor.render.html
    return [el("p", { class: "settings", "data-settings": "", text: p.settings }), givens,
      ...(hooks.exam || !p.slider ? [] : [buildSamplingWidget(p)]), buildSamplingPractice(p)];
  }

  // </kind sampling>
  // --- concept items (data.py concept_data: the sheet's labels and order, marks made in Python) ----

  // A variant's items: the page's texts (data.concepts) in the variant's order, with its own where they differ.
  function concepts() {
    const variant = data.variants[state.variant];
    if (!variant._concepts) {
      variant._concepts = (variant.concepts || []).map((own, k) => {
        const base = data.concepts[k];
        const labels = own.order.map((_, i) => String.fromCharCode(65 + i));
        const options = own.options || own.order.map((i) => base.options[i]);
        const texts = own.feedback || own.order.map((i) => base.feedback[i]);
        return {
          id: base.id, kind: base.kind, stem: base.stem, several: base.several, right_count: base.right_count, labels, options,
          feedback: Object.fromEntries(labels.map((label, i) => [label, texts[i]])),
          explanation: "explanation" in own ? own.explanation : base.explanation, answer: own.answer, scores: own.scores,
        };
      });
    }
    return variant._concepts;
  }
  const conceptState = (c) => state.concepts[c.id] || (state.concepts[c.id] = { chosen: [], mark: null });
  const conceptVerdict = (mark) => (mark.right ? "correct" : mark.score > 0 ? "partial" : "wrong");

  // What a student writes for it, as grade reads it: B; A, C (several); C A D B (an order)
  function conceptTyped(c, chosen) {
    if (c.kind === "order") return chosen.join(" ");
    return c.labels.filter((label) => chosen.includes(label)).join(", ");
  }

  // The scores were made by grade's own marker (data.py concept_scores): an answer not listed scores 0.
  function conceptMark(c, chosen) {
    const key = c.kind === "order" ? chosen.join("") : c.labels.filter((label) => chosen.includes(label)).join("");
    const score = c.scores[key] || 0;
    return { score, right: score === 1 };
  }

  function buildConcept(c) {
    const cs = conceptState(c);
    const section = el("section", { class: "concept", "data-concept": c.id });
    const pick = c.kind === "order" ? "page.concept_pick_order" : c.several ? "page.concept_pick_several" : "page.concept_pick";
    const group = el("div", { class: "options", role: "group", "aria-label": c.stem });
    const message = el("div", { class: "message", "aria-live": "polite" });
    const check = el("button", { type: "button", "data-action": "check", text: t("page.check") });
    const restart = el("button", { type: "button", class: "secondary", "data-action": "restart", text: t("page.concept_restart") });
    const buttons = c.labels.map((label, i) => el("button", { type: "button", class: "option", "data-option": label, "aria-pressed": "false",
      text: t("export.concept.option", { label, text: c.options[i] }) }));
    const show = () => {
      const marked = cs.mark !== null || Boolean(cs.kept);  // kept: chosen in an exam, marked by the server
      buttons.forEach((button) => {
        const label = button.getAttribute("data-option");
        const chosen = cs.chosen.includes(label);
        button.setAttribute("aria-pressed", chosen ? "true" : "false");
        button.setAttribute("aria-disabled", marked || (c.kind === "order" && chosen) ? "true" : "false");
        if (cs.mark && chosen) button.setAttribute("data-verdict", c.answer.includes(label) && (c.kind !== "order" || cs.mark.right) ? "correct" : "wrong");
        else button.removeAttribute("data-verdict");
      });
      check.hidden = marked || !c.several;
      const lines = [];
      if (c.kind === "order" && cs.chosen.length) lines.push(el("p", { "data-order": cs.chosen.join(" "), text: t("page.concept_order_so_far", { labels: cs.chosen.join(" ") }) }));
      if (cs.kept && !cs.mark) {
        lines.push(el("p", { class: "note", text: t("page.exam_kept") }));
      } else if (marked) {
        const verdict = conceptVerdict(cs.mark);
        section.setAttribute("data-verdict", verdict);
        section.setAttribute("data-points", String(cs.mark.score));
        lines.push(el("p", { class: "verdict", text: t("quiz.verdict", { verdict: t(`grading.verdict.${verdict}`), points: numbers.fmtGiven(cs.mark.score, SCORE_PLACES) }) }));
        if (c.kind !== "order") {
          for (const label of c.labels) {
            if (cs.chosen.includes(label) && !c.answer.includes(label) && c.feedback[label]) {
              lines.push(el("p", { class: "diagnosis", "data-feedback": label, text: `(${label}) ${c.feedback[label]}` }));
            }
          }
        }
        if (!cs.mark.right) lines.push(el("p", { "data-answer": conceptTyped(c, c.answer), text: t("page.concept_answer", { labels: conceptTyped(c, c.answer) }) }));
        if (c.explanation) lines.push(el("p", { class: "explanation", text: t("page.concept_why", { text: c.explanation }) }));
      } else {
        section.removeAttribute("data-verdict");
        section.removeAttribute("data-points");
      }
      message.replaceChildren(...lines);
    };
    const mark = () => {
      if (hooks.exam) cs.kept = true;  // an exam page has no marks: the server keeps the choice
      else cs.mark = conceptMark(c, cs.chosen);
      show();
      restart.focus();
      updateScore();
      if (hooks.checked) hooks.checked({ concept: c.id, text: conceptTyped(c, cs.chosen), node: section });
    };
    buttons.forEach((button) => {
      const label = button.getAttribute("data-option");
      button.addEventListener("click", () => {
        if (cs.mark !== null || cs.kept) return;
        if (c.kind === "order") {
          if (cs.chosen.includes(label)) return;
          cs.chosen.push(label);
          if (cs.chosen.length === c.labels.length) return mark();
        } else if (c.several) {
          cs.chosen = cs.chosen.includes(label) ? cs.chosen.filter((x) => x !== label) : [...cs.chosen, label];
        } else {
          cs.chosen = [label];
          return mark();
        }
        show();
      });
      group.append(button);
    });
    check.addEventListener("click", () => {
      if (!cs.chosen.length) {
        message.replaceChildren(el("p", { class: "error", "data-error": "page.concept_none", text: t("page.concept_none") }));
        return;
      }
      mark();
    });
    restart.addEventListener("click", () => {
      delete state.concepts[c.id];
      const fresh = buildConcept(c);
      section.replaceWith(fresh);
      const first = fresh.querySelector("button[data-option]");
      if (first) first.focus();
      updateScore();
    });
    section.append(el("h3", { text: c.stem }), el("p", { class: "pick", text: t(pick, { count: c.right_count }) }), group,
      el("div", { class: "answer-line" }, check, restart), message);
    show();
    return section;
  }

  // --- scores and the answer file ---------------------------------------------------------

  function totals() {
    let practice = 0, exam = 0, max = 0, checked = 0, unchecked = 0;
    for (const p of problems()) {
      // <kind sampling>
      if (p.kind === "sampling") {  // one "row": the stages straight under the problem's id
        const rs = state.rows[rowKey(p, 0)] || { items: {}, typed: {} };
        const given = {};
        for (const stage of p.asked_stages) {
          max += 1;
          const item = rs.items[stage];
          if (item) {
            practice += item.points;
            given[stage] = item.given;
            checked += 1;
          } else if ((rs.typed[stage] || "").trim()) {
            unchecked += 1;
          }
        }
        if (!hooks.exam) exam += AT.samplingMarking.mark(p, given, { mode: "exam" }).reduce((sum, item) => sum + item.points, 0);
        continue;
      }
      // </kind sampling>
      const solution = solutionOf(p);
      for (const row of p.asked_rows) {
        const rs = state.rows[rowKey(p, row)] || { items: {}, typed: {} };
        const given = {};
        for (const stage of p.asked_stages) {
          max += 1;
          const item = rs.items[stage];
          if (item) {
            practice += item.points;
            given[stage] = item.given;
            checked += 1;
          } else if ((rs.typed[stage] || "").trim()) {
            unchecked += 1;
          }
        }
        exam += marking.markRow(solution, row, given, { mode: "exam" }).reduce((sum, item) => sum + item.points, 0);
      }
    }
    for (const c of concepts()) {  // a concept item is marked the same in practice and in grade
      max += 1;
      const cs = state.concepts[c.id];
      if (cs && cs.mark) {
        practice += cs.mark.score;
        exam += cs.mark.score;
        checked += 1;
      } else if (cs && cs.chosen.length) {
        unchecked += 1;
      }
    }
    return { practice: numbers.pyRound(practice, 4), exam: numbers.pyRound(exam, 4), max, checked, unchecked };
  }

  function updateScore() {
    const box = document.getElementById("score");
    if (!box) return;
    const s = totals();
    const lines = [el("p", { "data-score": String(s.practice), "data-max": String(s.max), text: t("page.score", { score: numbers.fmtGiven(s.practice, SCORE_PLACES), max: s.max }) }),
      el("p", { "data-grade-score": String(s.exam), text: t("page.grade_score", { score: numbers.fmtGiven(s.exam, SCORE_PLACES), max: s.max }) })];
    if (s.exam !== s.practice) lines.push(el("p", { class: "note", text: t("page.grade_differs") }));
    if (s.unchecked) lines.push(el("p", { class: "note", text: t("page.unchecked", { count: s.unchecked }) }));
    box.replaceChildren(...lines);
  }

  // A YAML double-quoted scalar (JSON's escapes are YAML's), with what YAML reads as a line
  // break (U+0085, U+2028, U+2029) or refuses as unprintable written as \u escapes too.
  const UNPRINTABLE = /[\u007f-\u009f\u2028\u2029\ufffe\uffff]/g;
  const escapeCode = (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0");
  const q = (text) => JSON.stringify(String(text)).replace(UNPRINTABLE, escapeCode);

  function answerYaml(student) {
    const variant = data.variants[state.variant].variant;
    const out = ["# " + t("page.file_comment"), `student: ${q(student)}`, `problem_set: ${q(data.problem_set)}`];
    if (variant !== null) out.push(`variant: ${variant}`);
    out.push("answers:");
    let any = false;
    for (const p of problems()) {
      // <kind sampling>
      if (p.kind === "sampling") {  // its stages straight under its id (pick: the token)
        const rs = state.rows[rowKey(p, 0)];
        const stages = [];
        for (const stage of rs ? p.asked_stages : []) {
          const item = rs.items[stage];
          if (!item) continue;
          const typed = (rs.typed[stage] || "").replace(/[\u0000-\u001f]/g, " ").replace(UNPRINTABLE, " ");
          const value = stage === "pick" ? q(item.given[0]) : `[${item.given.map((v) => String(v)).join(", ")}]`;
          stages.push(`    # ${typed}`, `    ${stage}: ${value}`);
        }
        if (stages.length) {
          any = true;
          out.push(`  ${q(p.id)}:`, ...stages);
        }
        continue;
      }
      // </kind sampling>
      const rows = [];
      for (const row of p.asked_rows) {
        const rs = state.rows[rowKey(p, row)];
        if (!rs) continue;
        const stages = [];
        for (const stage of p.asked_stages) {
          const item = rs.items[stage];
          if (!item) continue;
          const typed = (rs.typed[stage] || "").replace(/[\u0000-\u001f]/g, " ").replace(UNPRINTABLE, " ");
          stages.push(`      # ${typed}`, `      ${stage}: [${item.given.map((v) => String(v)).join(", ")}]`);
        }
        if (stages.length) rows.push(`    ${q(p.tokens[row])}:`, ...stages);
      }
      if (rows.length) {
        any = true;
        out.push(`  ${q(p.id)}:`, ...rows);
      }
    }
    if (!any) out[out.length - 1] = "answers: {}";
    const chosen = concepts().filter((c) => state.concepts[c.id] && state.concepts[c.id].mark);
    if (chosen.length) {
      out.push("concepts:", ...chosen.map((c) => `  ${q(c.id)}: ${q(conceptTyped(c, state.concepts[c.id].chosen))}`));
      any = true;
    }
    return [out.join("\n") + "\n", any];
  }

  function fileName(student) {
    const variant = data.variants[state.variant].variant;
    const safe = student.normalize("NFC").replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029/\\:*?"<>|]+/g, "_").trim().slice(0, 60) || "answers";
    return `${safe}${variant !== null ? "-" + variant : ""}.yaml`;
  }

  function save() {
    const nameInput = document.querySelector('[data-field="student"]');
    const status = document.getElementById("save-status");
    const student = nameInput.value.trim();
    if (!student) {
      status.replaceChildren(el("p", { class: "error", text: t("page.need_name") }));
      nameInput.focus();
      return;
    }
    const [text, any] = answerYaml(student);
    if (!any) {
      status.replaceChildren(el("p", { class: "error", text: t("page.nothing_checked") }));
      return;
    }
    const name = fileName(student);
    const url = URL.createObjectURL(new Blob([text], { type: "application/x-yaml;charset=utf-8" }));
    const link = el("a", { href: url, download: name });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60000);
    status.replaceChildren(el("p", { "data-saved": name, text: t("page.saved", { file: name }) }));
    state.saved = snapshot();
  }

  // --- the page ---------------------------------------------------------------------------

  function renderVariant() {
    const main = document.getElementById("problems");
    main.replaceChildren();
    const contents = el("ol");
    problems().forEach((p, i) => contents.append(el("li", {}, el("a", { href: `#problem-${i + 1}`, text: p.heading }))));
    if (concepts().length) contents.append(el("li", {}, el("a", { href: "#concepts", text: t("page.concepts") })));
    if (!hooks.exam && !hooks.live) contents.append(el("li", {}, el("a", { href: "#save", text: t("page.save_title") })));
    contents.addEventListener("click", (event) => {  // scroll without changing the address (it holds the variant)
      const link = event.target.closest("a");
      if (!link) return;
      event.preventDefault();
      document.getElementById(link.getAttribute("href").slice(1)).scrollIntoView();
    });
    document.getElementById("contents").replaceChildren(contents);
    for (const [i, p] of problems().entries()) {
      const section = el("section", { class: "problem", id: `problem-${i + 1}`, "data-problem": p.id });
      section.append(el("h2", { text: p.heading }));
      // <kind sampling>
      if (p.kind === "sampling") {
        section.setAttribute("data-kind", "sampling");
        section.append(...samplingParts(p));
        main.append(section);
        continue;
      }
      // </kind sampling>
      for (const note of p.notes) section.append(el("p", { class: "note", text: note }));
      const givens = el("div", { class: "givens" });
      givens.innerHTML = p.givens_html; // our own HTML, escaped by attn_tutor.render.html
      section.append(givens, ...(hooks.exam ? [] : [buildWidget(p)]), buildPractice(p));
      main.append(section);
    }
    if (concepts().length) {
      const section = el("section", { class: "problem concepts", id: "concepts" }, el("h2", { text: t("page.concepts") }));
      for (const c of concepts()) section.append(buildConcept(c));
      main.append(section);
    }
    updateScore();
  }

  function hasAnswers() {
    return Object.values(state.rows).some((rs) => Object.keys(rs.items).length || Object.values(rs.typed).some((x) => x.trim()))
      || Object.values(state.concepts).some((cs) => cs.chosen.length);
  }

  const snapshot = () => JSON.stringify([state.rows, state.concepts], (k, v) => (k === "_solution" ? undefined : v));

  function buildHeader() {
    const header = document.getElementById("controls");
    if (data.variants.length > 1) {
      const select = el("select", { id: "variant", "data-field": "variant" });
      data.variants.forEach((v, i) => select.append(el("option", { value: String(i), text: String(v.variant) })));
      select.addEventListener("change", () => {
        const chosen = Number(select.value);
        if (hasAnswers() && !window.confirm(t("page.switch_confirm"))) {
          select.value = String(state.variant);
          return;
        }
        state.variant = chosen;
        state.rows = {};
        state.concepts = {};
        history.replaceState(null, "", "#variant=" + data.variants[chosen].variant);
        whenUnpacked(chosen, renderVariant);
      });
      select.value = String(state.variant);
      header.append(el("p", { class: "variant" }, el("label", { for: "variant", text: t("page.choose_variant") + " " }), select));
    } else if (data.variants[0].variant !== null) {
      header.append(el("p", { class: "variant", "data-variant": String(data.variants[0].variant), text: t("page.variant_fixed", { seed: data.variants[0].variant }) }));
    }
    if (hooks.exam || hooks.live) return;  // no file to hand in and no score: the server keeps the answers
    const name = el("input", { id: "student", type: "text", "data-field": "student", autocomplete: "name" });
    const button = el("button", { type: "button", "data-action": "save", text: t("page.save") });
    button.addEventListener("click", save);
    const panel = document.getElementById("save");
    panel.append(el("h2", { text: t("page.save_title") }),
      el("p", { class: "answer-line" }, el("label", { for: "student", text: t("page.student") + " " }), name, button),
      el("div", { id: "save-status", "aria-live": "polite" }), el("div", { id: "score", "aria-live": "polite" }));
  }

  // Every variant but the first is carried deflated (zlib, in base64: data.py's pack) in
  // script#page-variants after the scripts (page.py), and unpacked by the browser's own
  // DecompressionStream the first time it is chosen; meanwhile the old variant's problems are
  // gone from the page, so nothing is typed into them. One chosen while the browser is still
  // reading the page (a link to #variant=N, as it opens) waits until it has read it all.
  function whenUnpacked(index, then) {
    const variant = data.variants[index];
    if (variant.problems) return then();
    const main = document.getElementById("problems");
    main.replaceChildren();
    main.setAttribute("aria-busy", "true");
    if (variant.packed === undefined) {
      if (document.readyState === "loading") {  // (the element may not be read in full yet)
        return new Promise((resolve) => {
          document.addEventListener("DOMContentLoaded", () => resolve(whenUnpacked(index, then)), { once: true });
        });
      }
      const source = document.getElementById("page-variants");
      const packed = source ? JSON.parse(source.textContent) : [];
      data.variants.forEach((v, i) => { if (!v.problems && typeof packed[i] === "string") v.packed = packed[i]; });
    }
    const bytes = Uint8Array.from(atob(variant.packed), (c) => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
    return new Response(stream).text().then((text) => {
      if (!variant.problems) Object.assign(variant, JSON.parse(text));  // its problems and concept items
      main.removeAttribute("aria-busy");
      if (state.variant === index) then();
    });
  }

  function start() {
    const source = document.getElementById("page-data");
    data = JSON.parse(source.textContent);
    M = data.messages;
    AT.answers.setNumerals(data.digits, data.fractions);  // the digits Python reads (marking/digits.py)
    hooks = AT.hooks || {};
    const wanted = /variant=(\d+)/.exec(location.hash);
    if (wanted) {
      const index = data.variants.findIndex((v) => String(v.variant) === wanted[1]);
      if (index >= 0) state.variant = index;
    }
    document.documentElement.classList.add("js");
    buildHeader();
    Promise.resolve(whenUnpacked(state.variant, renderVariant)).then(() => { if (hooks.ready) hooks.ready(); });
    // Printing: each problem's figure and its stage-by-stage tables, as static figures.
    let opened = [];
    window.addEventListener("beforeprint", () => {
      opened = [...document.querySelectorAll("details.working:not([open])")];
      opened.forEach((d) => { d.open = true; });
    });
    window.addEventListener("afterprint", () => {
      opened.forEach((d) => { d.open = false; });
      opened = [];
    });
    window.addEventListener("beforeunload", (event) => {
      if (hooks.live) return;  // the server has them
      const now = snapshot();
      if (hasAnswers() && now !== state.saved) {
        event.preventDefault();
        event.returnValue = "";
      }
    });
  }

  // A live page's "another like this": problem ``p`` (practice/data.py problem_data of a variant) drawn
  // as a problem of the page, in a section of its own headed ``title``; its rows kept apart from the
  // problem's own (p.key), its checked stages given to hooks.checked with ``variant``.
  function variantSection(p, variant, title, note) {
    p.variant = variant;
    p.key = `${p.id}@${variant}`;
    const section = el("section", { class: "problem variant", id: `variant-${p.id}-${variant}`.replace(/[^\w-]/g, "_"),
      "data-variant-of": p.id, "data-variant": String(variant), tabindex: "-1" });
    section.append(el("h2", { text: `${p.heading} — ${title}` }), el("p", { class: "notice", "data-practice-note": true, text: note }));
    for (const line of p.notes) section.append(el("p", { class: "note", text: line }));
    // <kind sampling>
    if (p.kind === "sampling") {
      section.setAttribute("data-kind", "sampling");
      section.append(...samplingParts(p));
      return section;
    }
    // </kind sampling>
    const givens = el("div", { class: "givens" });
    givens.innerHTML = p.givens_html; // our own HTML, escaped by attn_tutor.render.html
    section.append(givens, buildWidget(p), buildPractice(p));
    return section;
  }

  AT.page = { start, variantSection, parseAnswer, ownHintLine, solutionOf, totals, answerYaml, t: (key, args) => t(key, args), data: () => data, el };
  // The data and the regions it fills come before the scripts: start as soon as this runs, without
  // waiting for the rest of the document (the packed variants) to be read.
  if (document.getElementById("page-data")) start();
  else document.addEventListener("DOMContentLoaded", start);
})(globalThis.AttnTutor = globalThis.AttnTutor || {});
