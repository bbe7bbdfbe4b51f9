// The teacher's page of `attn-tutor serve`: the counts, the class's map, the scores and the
// students kept current from /teacher/events (server-sent events: the whole map after each
// change), and the controls (open/close a problem, show its solution, practice/exam). Every text
// is set with textContent; the sentences are the catalogue's, in <script id="teacher-data">.
(function () {
  "use strict";

  const M = JSON.parse(document.getElementById("teacher-data").textContent).messages;
  let csrf = "";
  const t = (key, args) => (M[key] || key).replace(/\{(\w+)\}/g, (whole, name) => (args && name in args ? String(args[name]) : whole));

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) {
      if (name === "text") node.textContent = value;
      else if (value !== null && value !== false) node.setAttribute(name, value === true ? "" : value);
    }
    node.append(...children);
    return node;
  }

  function say(text) {
    document.getElementById("teacher-status").textContent = text;
  }

  function render(map) {
    if (map.csrf) csrf = map.csrf;
    document.querySelector("[data-counts]").textContent = t("live.counts", { joined: map.joined, answered: map.answered });
    const mode = document.querySelector("[data-mode]");
    mode.setAttribute("data-mode", map.mode);
    mode.textContent = t(`live.mode.${map.mode}`);
    const other = map.mode === "exam" ? "practice" : "exam";
    const modeButton = document.querySelector('[data-control="mode"]');
    modeButton.setAttribute("data-value", other);
    modeButton.textContent = t(`live.to_${other}`);
    for (const [problem, state] of Object.entries(map.problems)) {
      const row = document.querySelector(`[data-problem-control="${CSS.escape(problem)}"]`);
      if (!row) continue;
      const open = row.querySelector('[data-control="open"]');
      open.setAttribute("data-value", String(!state.open));
      if (problem === "#concepts") {  // the concept items, opened and closed together (nothing to reveal)
        row.querySelector("[data-problem-state]").textContent = t(state.open ? "live.concepts_open" : "live.concepts_closed");
        open.textContent = t(state.open ? "live.concepts_close" : "live.concepts_reopen");
        continue;
      }
      row.querySelector("[data-problem-state]").textContent = t(state.open ? "live.problem_open" : "live.problem_closed", { problem });
      open.textContent = t(state.open ? "live.close" : "live.open", { problem });
      const reveal = row.querySelector('[data-control="revealed"]');
      reveal.setAttribute("data-value", String(!state.revealed));
      reveal.textContent = t(state.revealed ? "live.unreveal" : "live.reveal", { problem });
    }
    for (const span of document.querySelectorAll("[data-practice-count]")) {  // "another like this": never in the map
      const drawn = (map.practice || {})[span.getAttribute("data-practice-count")] || { variants: 0, students: 0 };
      span.setAttribute("data-count", String(drawn.variants));
      span.textContent = t("live.practice_count", { count: drawn.variants, students: drawn.students });
      span.hidden = drawn.variants === 0;
    }
    for (const row of document.querySelectorAll("[data-map-item]")) {
      const counts = map.map[row.getAttribute("data-map-item")] || { verdicts: {}, diagnoses: {} };
      for (const cell of row.querySelectorAll("[data-map-verdict]")) cell.textContent = String(counts.verdicts[cell.getAttribute("data-map-verdict")] || 0);
      for (const cell of row.querySelectorAll("[data-map-option]")) cell.textContent = String((counts.options || {})[cell.getAttribute("data-map-option")] || 0);
      const list = row.querySelector(".diagnoses ul");
      for (const [code, n] of Object.entries(counts.diagnoses)) {
        if (!row.querySelector(`[data-map-diagnosis="${CSS.escape(code)}"]`)) {
          list.append(el("li", {}, el("span", { class: "label", text: M[`grading.diagnosis_name.${code}`] || code }), " ", el("span", { "data-map-diagnosis": code, text: "0" })));
        }
      }
      for (const cell of row.querySelectorAll("[data-map-diagnosis]")) {
        const n = counts.diagnoses[cell.getAttribute("data-map-diagnosis")] || 0;
        cell.textContent = String(n);
        cell.parentNode.hidden = n === 0;
      }
    }
    const bins = document.querySelector("[data-distribution]");
    bins.replaceChildren(...map.distribution.map((bin) => el("li", { "data-distribution-bin": String(bin.low) },
      el("span", { text: t("live.distribution_row", { range: bin.label, count: bin.count }) }), " ",
      el("meter", { min: "0", max: String(Math.max(map.answered, 1)), value: String(bin.count), "aria-hidden": "true" }))));
    if (map.lecture) renderLecture(map.lecture);
    const roster = document.querySelector("[data-roster] tbody");
    roster.replaceChildren(...map.students.map((s) => el("tr", { "data-student": true },
      el("td", { text: s.name }), el("td", { text: String(s.answered) }), el("td", { text: s.score_text }))));
  }

  // Peer instruction: which buttons show (pause or resume, hide or show the results), the item in focus
  // pressed, what the class is doing said in words.
  function itemLabel(focus) {
    // <kind sampling> (the lines to </kind sampling> are left out of a class with no sampling problem: practice/page.py for_kinds)
    if (focus.concept === undefined && !focus.row) return t("live.item_problem", { problem: focus.problem });  // a problem without rows
    // </kind sampling>
    return focus.concept !== undefined ? t("live.item_concept", { concept: focus.concept }) : t("live.item_row", { problem: focus.problem, row: focus.row });
  }

  function renderLecture(lecture) {
    const show = (action, shown) => { for (const b of document.querySelectorAll(`[data-action="${action}"]`)) b.hidden = !shown; };
    show("pause", !lecture.paused);
    show("resume", lecture.paused);
    show("hide-results", !lecture.hidden);
    show("show-results", lecture.hidden);
    const focus = lecture.focus;
    for (const button of document.querySelectorAll('[data-action="focus"]')) {
      const on = Boolean(focus) && (button.hasAttribute("data-concept") ? focus.concept === button.getAttribute("data-concept")
        : focus.problem === button.getAttribute("data-problem") && focus.row === button.getAttribute("data-row"));
      button.setAttribute("aria-pressed", String(on));
    }
    for (const button of document.querySelectorAll('[data-action="ask-again"]')) {
      button.disabled = !focus || (button.hasAttribute("data-fresh-variant") && focus.concept !== undefined);
    }
    const said = [focus ? t("live.lecture_focus", { item: itemLabel(focus) }) : t("live.no_focus")];
    if (focus) {
      const round = lecture.rounds.find((r) => (focus.concept !== undefined ? r.problem === "#concepts" && r.row === focus.concept : r.problem === focus.problem && r.row === focus.row));
      said.push(t("live.round", { round: round ? round.round : 1 }));
    }
    if (lecture.paused) said.push(t("live.lecture_paused"));
    if (lecture.hidden) said.push(t("live.results_hidden"));
    document.querySelector("[data-lecture-state]").textContent = said.join(" \u00b7 ");
  }

  async function lecture(button) {
    const action = button.getAttribute("data-action");
    const body = { action };
    if (action === "focus") {
      if (button.hasAttribute("data-concept")) body.concept = button.getAttribute("data-concept");
      else { body.problem = button.getAttribute("data-problem"); body.row = button.getAttribute("data-row"); }
      if (button.getAttribute("aria-pressed") === "true") { delete body.problem; delete body.row; delete body.concept; body.clear = true; }
    }
    if (action === "ask-again") body.fresh_variant = button.hasAttribute("data-fresh-variant");
    button.disabled = true;
    try {
      const response = await fetch("/teacher/api/lecture", {
        method: "POST", credentials: "same-origin", cache: "no-store",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf }, body: JSON.stringify(body),
      });
      const payload = await response.json().catch(() => ({}));
      say(response.ok ? "" : payload.error || String(response.status));
      if (response.ok) renderLecture(payload);
    } catch (error) {
      say(t("live.reconnecting"));
    } finally {
      button.disabled = false;
      load();
    }
  }

  async function load() {
    try {
      const response = await fetch("/teacher/api/map", { credentials: "same-origin", cache: "no-store" });
      if (response.ok) render(await response.json());
    } catch (error) {
      say(t("live.reconnecting"));
    }
  }

  async function control(button) {
    const kind = button.getAttribute("data-control");
    const value = button.getAttribute("data-value");
    const path = kind === "mode" ? "/teacher/api/mode" : `/teacher/api/problem/${encodeURIComponent(button.getAttribute("data-problem"))}`;
    const body = kind === "mode" ? { mode: value } : { [kind]: value === "true" };
    button.disabled = true;
    try {
      const response = await fetch(path, {
        method: "POST", credentials: "same-origin", cache: "no-store",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf }, body: JSON.stringify(body),
      });
      const payload = await response.json().catch(() => ({}));
      say(response.ok ? "" : payload.error || String(response.status));
    } catch (error) {
      say(t("live.reconnecting"));
    } finally {
      button.disabled = false;
      load();
    }
  }

  document.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-control]");
    if (button) control(button);
    const action = event.target.closest("button[data-action]");
    if (action) lecture(action);
  });

  const events = new EventSource("/teacher/events");
  events.addEventListener("map", (event) => { say(""); render(JSON.parse(event.data)); });
  events.addEventListener("error", () => say(t("live.reconnecting")));
  load();
})();
