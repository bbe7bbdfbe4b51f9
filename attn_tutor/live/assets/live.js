// The live page's link to the server (`attn-tutor serve`): joining, and every checked stage sent.
// The practice page (widget.js) calls AT.hooks: checked() after each stage it checks, ready() once
// drawn. Each checked stage goes into a queue in localStorage first and is POSTed to /api/answer;
// it leaves the queue only when the server has committed it (its stage block then carries
// data-saved="true"). The queue is sent again on load, on `online`, when the page is shown again
// and every few seconds while anything waits: nothing checked is lost to a dropped connection, a
// phone that slept or a server restart. The same device rejoins as the same student (its id in
// localStorage), and a reload puts back every saved answer. Nothing here builds a script or HTML
// from data but the server's own solution HTML (escaped by attn_tutor.render.html).
//
// By part (each its own block below, so that others can be added beside them): what is typed,
// kept as it is typed (`typed`); the saved sign (`savedSign`); the server's view (`refresh`,
// `apply`); sending (`checked`, `flush`); "another like this" (`another`).
(function (AT) {
  "use strict";

  const meta = (name) => {
    const node = document.querySelector(`meta[name="${name}"]`);
    return node ? node.getAttribute("content") : "";
  };
  const SESSION = meta("attn-session");
  const MODE = meta("attn-mode");
  const ROUNDS = meta("attn-rounds");  // the rounds this page was made for (an item asked again: the page is made anew)
  const KEY = "attn-live:" + SESSION + ":";
  const STAGES = ["scores", "scaled", "weights", "output"];
  // <kind sampling> (the lines to </kind sampling> are left out of a page with no sampling problem: practice/page.py for_kinds)
  STAGES.push("exp", "probabilities", "kept", "pick", "loss", "perplexity");  // a sampling problem's, after its scaled: its own order kept
  // </kind sampling>
  const POLL = 5000;  // the session's state (closed problems, solutions, the mode) read again this often
  let csrf = "", joined = false, flushing = false, retryTimer = null, delay = 1000, restoring = false, restored = false;
  let shownProblems = {};
  const acked = {};  // item -> the text the server has

  const t = (key, args) => AT.page.t(key, args);
  // a problem, or a variant of one ("another like this": problem@seed)
  const problemKey = (problem, variant) => (variant === undefined || variant === null ? problem : problem + "@" + variant);
  const itemKey = (problem, row, stage, variant) => problemKey(problem, variant) + "\u0000" + row + "\u0000" + stage;
  // An answer's item: a stage, or a concept item ({concept, text, client_id}: one choice, sent the same way)
  const keyOf = (a) => (a.concept !== undefined ? "#concept\u0000" + a.concept : itemKey(a.problem, a.row, a.stage, a.variant));

  function read(name, fallback) {
    try {
      const text = localStorage.getItem(KEY + name);
      return text === null ? fallback : JSON.parse(text);
    } catch (error) {
      return fallback;
    }
  }
  function write(name, value) {
    try { localStorage.setItem(KEY + name, JSON.stringify(value)); return true; } catch (error) { return false; /* full or private: kept in memory only */ }
  }
  let memoryQueue = null;  // only while localStorage refuses it: else every tab of the student reads the one queue
  const queue = () => memoryQueue || read("queue", []);
  const setQueue = (items) => { memoryQueue = write("queue", items) ? null : items; };

  function randomId() {  // crypto.randomUUID needs a secure context; a classroom's http:// address is not one
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }
  function device() {
    let id = null;
    try { id = localStorage.getItem("attn-live-device"); } catch (error) { /* no storage */ }
    if (!id) {
      id = randomId();
      try { localStorage.setItem("attn-live-device", id); } catch (error) { /* no storage */ }
    }
    return id;
  }

  async function call(method, path, body) {
    const options = { method, credentials: "same-origin", cache: "no-store", headers: {} };
    if (body !== undefined) {
      options.headers = { "Content-Type": "application/json", "X-CSRF-Token": csrf };
      options.body = JSON.stringify(body);
    }
    const response = await fetch(path, options);
    let payload = {};
    try { payload = await response.json(); } catch (error) { /* not JSON */ }
    if (payload && payload.csrf) csrf = payload.csrf;
    return { status: response.status, ok: response.ok, payload };
  }

  function problemSection(problem, variant) {
    if (variant === undefined || variant === null) return document.querySelector(`section[data-problem="${CSS.escape(problem)}"]`);
    return document.querySelector(`section[data-variant-of="${CSS.escape(problem)}"][data-variant="${CSS.escape(String(variant))}"]`);
  }

  function block(problem, row, stage, variant) {
    const section = problemSection(problem, variant);
    if (!section) return null;
    const rowNode = section.querySelector(`[data-row="${CSS.escape(row)}"]`);
    return rowNode ? rowNode.querySelector(`[data-stage-block="${CSS.escape(stage)}"]`) : null;
  }

  function conceptNode(concept) {
    return document.querySelector(`section[data-concept="${CSS.escape(concept)}"]`);
  }
  const nodeOf = (a) => (a.concept !== undefined ? conceptNode(a.concept) : block(a.problem, a.row, a.stage, a.variant));

  // --- the saved sign: neutral, in words, never the sign of a right answer ---------------------
  // data-saved="true" once the server has committed it ("false": refused); the words "saved" beside
  // the stage's (or concept item's) buttons. A verdict is the page's own sign (widget.js), apart.
  function savedSign(node, value) {
    if (value === null) node.removeAttribute("data-saved");
    else node.setAttribute("data-saved", value);
    const line = node.querySelector(":scope > .answer-line");
    let sign = node.querySelector(":scope > .answer-line > [data-saved-sign]");
    if (value === "true" && !sign && line) {
      sign = AT.page.el("span", { class: "saved-sign", "data-saved-sign": true, text: t("live.saved_sign") });
      line.append(sign);
    } else if (value !== "true" && sign) {
      sign.remove();
    }
  }

  // --- what is typed, kept as it is typed ---------------------------------------------------------
  // Every stage's text and every concept item's choices so far, checked or not, go into localStorage
  // under the session and the student (state.key: two students on one device, or two sessions, never
  // mix) as they are typed; after a reload (the mode switched, a problem opened again, a server
  // restart, a phone that slept) they are put back in their boxes, never checked or sent: that is
  // the student's to do. An entry goes when its item is checked (then the queue and the server keep it).
  let studentKey = null;
  const typedName = () => "typed:" + studentKey;
  const typedAll = () => (studentKey ? read(typedName(), {}) : {});
  function typedSet(key, text) {
    if (!studentKey || restoring) return;
    const all = typedAll();
    if (text) all[key] = text;
    else delete all[key];
    write(typedName(), all);
  }

  // An item asked again starts empty: what was typed in it, unchecked, for an earlier round is not
  // put back. The rounds this device last saw are kept beside the typed text; when the server's
  // differ, the typed text of every item asked again is dropped (once: then the new rounds are kept).
  function forgetAskedAgain(lecture) {
    if (!studentKey || !lecture) return;
    const name = "rounds:" + studentKey;
    const seen = read(name, null);
    const now = lecture.rounds_key || "";
    if (seen === now) return;
    if (seen !== null) {
      const all = typedAll();
      for (const round of lecture.rounds || []) {
        const concept = round.problem === "#concepts";
        const prefix = concept ? "#concept\u0000" + round.row : round.problem + "\u0000" + round.row + "\u0000";
        for (const key of Object.keys(all)) if (concept ? key === prefix : key.startsWith(prefix)) delete all[key];
      }
      write(typedName(), all);
    }
    write(name, now);
  }

  function stageItemOf(input) {  // the item a stage's box belongs to: {problem, variant?, row, stage}
    const node = input.closest("[data-stage-block]");
    const row = input.closest("[data-row]");
    const section = input.closest("section[data-problem], section[data-variant-of]");
    if (!node || !row || !section) return null;
    const variant = section.hasAttribute("data-variant") ? Number(section.getAttribute("data-variant")) : undefined;
    return { problem: section.getAttribute("data-problem") || section.getAttribute("data-variant-of"), variant,
      row: row.getAttribute("data-row"), stage: node.getAttribute("data-stage-block") };
  }

  function conceptChoices(section) {  // the labels chosen so far, unchecked ("" when checked or none)
    const options = [...section.querySelectorAll("button[data-option]")];
    if (!options.length || options.every((b) => b.getAttribute("aria-disabled") === "true")) return "";  // marked or kept
    const order = section.querySelector("[data-order]");
    if (order) return order.getAttribute("data-order");
    return options.filter((b) => b.getAttribute("aria-pressed") === "true").map((b) => b.getAttribute("data-option")).join(" ");
  }

  function watchTyping() {
    document.addEventListener("input", (event) => {
      const input = event.target;
      if (!(input instanceof HTMLInputElement) || !input.matches("input[data-stage]")) return;
      const item = stageItemOf(input);
      if (item) typedSet(keyOf(item), input.value);
    });
    document.addEventListener("click", (event) => {  // after the widget's own handler has chosen
      const button = event.target instanceof Element ? event.target.closest("section[data-concept] button") : null;
      if (!button) return;
      const concept = button.closest("section[data-concept]").getAttribute("data-concept");
      const section = conceptNode(concept);  // (a restart replaces the section)
      if (section) typedSet(keyOf({ concept }), conceptChoices(section));
    });
  }

  function restoreTyped() {
    for (const [key, text] of Object.entries(typedAll())) {
      const [first, second, third] = key.split("\u0000");
      if (first === "#concept") {
        const section = conceptNode(second);
        if (!section || conceptChoices(section) !== "" || section.querySelector('button[data-option][aria-pressed="true"]')) continue;
        for (const label of text.split(/\s+/).filter(Boolean)) {
          const button = section.querySelector(`button[data-option="${CSS.escape(label)}"]`);
          if (button && button.getAttribute("aria-disabled") !== "true") button.click();
        }
        continue;
      }
      const at = first.lastIndexOf("@");
      const node = at > 0 ? block(first.slice(0, at), second, third, first.slice(at + 1)) : block(first, second, third);
      const input = node && node.querySelector("input[data-stage]");
      if (!input || node.hasAttribute("data-verdict") || node.hasAttribute("data-saved") || input.value) continue;
      input.value = text;
      input.dispatchEvent(new Event("input"));  // the widget keeps it as typed; nothing checked or sent
    }
  }

  function status() {
    const box = document.getElementById("live-status");
    if (!box) return;
    const waiting = queue().length;
    if (!joined) box.textContent = "";
    else if (waiting) box.textContent = t("live.pending", { count: waiting });
    else box.textContent = t("live.all_saved");
    box.setAttribute("data-pending", String(waiting));
  }

  function showJoined(name) {
    const form = document.getElementById("join");
    if (form) form.hidden = joined;
    const problems = document.getElementById("problems");
    if (problems) problems.hidden = !joined;
    const contents = document.getElementById("contents");
    if (contents) contents.hidden = !joined;
    const box = document.getElementById("live-status");
    if (box && joined && name) box.setAttribute("data-student", name);
    status();
  }

  // --- the server's view -------------------------------------------------------------

  async function refresh() {
    let result;
    try {
      result = await call("GET", "/api/state");
    } catch (error) {
      return retryLater();
    }
    if (!result.ok) return retryLater();
    const state = result.payload;
    if (state.session !== SESSION || state.mode !== MODE) {  // a new session, or the teacher switched the mode
      location.reload();
      return;
    }
    if (!state.joined) {
      const name = read("name", null);
      if (name) return join(name, true);
      joined = false;
      showJoined(null);
      return;
    }
    joined = true;
    if (state.key) studentKey = state.key;
    forgetAskedAgain(state.lecture);
    showJoined(state.name);
    await drawVariants(state);
    apply(state);
    if (state.lecture && lecture(state.lecture)) return;
    flush();
  }

  // --- peer instruction: the teacher's focus, pause and rounds ---------------------------

  let focusShown = null;
  // The lecture as the server has it; true when the page reloads itself (an item was asked again:
  // the page is made anew for the new round, its numbers a fresh variant's when the teacher drew one).
  function lecture(state) {
    if ((state.rounds_key || "") !== ROUNDS) {
      location.reload();
      return true;
    }
    showPaused(state.paused);
    showRounds(state.rounds || []);
    goToFocus(state.focus);
    return false;
  }

  // Each item asked again says so above its boxes: the round, and new numbers when the teacher drew a variant.
  function showRounds(rounds) {
    for (const round of rounds) {
      let node = null;
      if (round.problem === "#concepts") node = conceptNode(round.row);
      else {
        const section = document.querySelector(`section[data-problem="${CSS.escape(round.problem)}"]`);
        node = section ? section.querySelector(`[data-row="${CSS.escape(round.row)}"]`) : null;
      }
      if (!node || node.querySelector("[data-round-note]")) continue;
      const text = t(round.fresh ? "live.round_fresh_note" : "live.round_note", { round: round.round });
      const note = AT.page.el("p", { class: "notice", "data-round-note": String(round.round), text });
      const heading = node.querySelector("h2, h3, h4");
      if (heading) heading.after(note); else node.prepend(note);
    }
  }

  // Paused: a notice, data-paused="true" on <body>, every input and button of the problems and concept
  // items disabled (their text stays: nothing is cleared); resumed, those it disabled are enabled again.
  function showPaused(paused) {
    document.body.setAttribute("data-paused", String(Boolean(paused)));
    let notice = document.getElementById("paused-notice");
    if (paused && !notice) {
      notice = AT.page.el("p", { id: "paused-notice", class: "paused-notice", role: "status", "data-paused-notice": true, text: t("live.paused") });
      const status = document.getElementById("live-status");
      if (status) status.before(notice); else document.body.prepend(notice);
    } else if (!paused && notice) {
      notice.remove();
    }
    const controls = document.querySelectorAll("#problems input, #problems button, #problems select, #problems textarea, #concepts input, #concepts button");
    for (const control of controls) {
      if (paused && !control.disabled) {
        control.disabled = true;
        control.setAttribute("data-paused-disabled", "true");
      } else if (!paused && control.hasAttribute("data-paused-disabled")) {
        control.disabled = false;
        control.removeAttribute("data-paused-disabled");
      }
    }
  }

  // The item in focus, once each time the teacher changes it: scrolled to, marked, its first empty input focused.
  function goToFocus(focus) {
    const key = focus ? JSON.stringify(focus) : null;
    if (key === focusShown) return;
    focusShown = key;
    for (const node of document.querySelectorAll("[data-focused]")) node.removeAttribute("data-focused");
    if (!focus) return;
    let node = null;
    if (focus.concept !== undefined) node = conceptNode(focus.concept);
    else {
      const section = document.querySelector(`section[data-problem="${CSS.escape(focus.problem)}"]`);
      node = section ? section.querySelector(`[data-row="${CSS.escape(focus.row)}"]`) : null;
    }
    if (!node) return;
    node.setAttribute("data-focused", "true");
    node.scrollIntoView({ block: "start" });
    const input = [...node.querySelectorAll("input:not([disabled]), button[data-option]:not([disabled])")].find((i) => i.tagName !== "INPUT" || !i.value);
    if (input) input.focus({ preventScroll: true });
  }

  async function join(name, quiet) {
    const error = document.getElementById("join-error");
    let result;
    try {
      result = await call("POST", "/api/join", { name, device: device() });
    } catch (failure) {
      if (!quiet && error) error.textContent = t("live.reconnecting");
      return retryLater();
    }
    if (result.status === 403 && !quiet) {  // a new security token: the state gives it; then once more
      await call("GET", "/api/state").catch(() => null);
      result = await call("POST", "/api/join", { name, device: device() }).catch(() => ({ ok: false, payload: {} }));
    }
    if (!result.ok) {
      if (error) error.textContent = result.payload.error || t("live.reconnecting");
      if (quiet) { joined = false; showJoined(null); }
      return;
    }
    if (error) error.textContent = "";
    write("name", name);
    return refresh();
  }

  // The saved answers put back on the page (in stage order, as the student checked them), then
  // what the server says of each problem: closed, its solution, and in an exam its marks.
  function apply(state) {
    if (!restored) {
      restored = true;
      restoring = true;
      const byRow = {};
      const pending = queue().filter((a) => a.concept !== undefined || problemSection(a.problem, a.variant));
      for (const answer of state.answers) acked[keyOf(answer)] = answer.text;
      const chosen = {};
      for (const answer of [...state.answers, ...read("refused", []), ...pending]) {  // refused: typed while closed, kept
        if (answer.concept !== undefined) {
          chosen[answer.concept] = answer.text;
          continue;
        }
        const key = problemKey(answer.problem, answer.variant) + "\u0000" + answer.row;
        (byRow[key] = byRow[key] || { problem: answer.problem, variant: answer.variant, row: answer.row, stages: {} }).stages[answer.stage] = answer.text;
      }
      for (const { problem, variant, row, stages } of Object.values(byRow)) {
        for (const stage of STAGES) {
          if (!(stage in stages)) continue;
          const node = block(problem, row, stage, variant);
          if (!node) continue;
          const input = node.querySelector("input[data-stage]");
          const check = node.querySelector('button[data-action="check"]');
          if (!input || !check || input.disabled) break;
          input.value = stages[stage];
          input.dispatchEvent(new Event("input"));
          check.click();
        }
      }
      for (const [concept, text] of Object.entries(chosen)) restoreChoice(concept, text);
      restoreTyped();
      restoring = false;
      updateAnother();
      if (document.activeElement && document.activeElement !== document.body) document.activeElement.blur();
    }
    for (const answer of state.answers) {
      const node = nodeOf(answer);
      if (!node) continue;
      if (acked[keyOf(answer)] === answer.text) savedSign(node, "true");
      if (answer.verdict !== undefined) (answer.concept !== undefined ? showChoiceMark : showMark)(node, answer);
    }
    const conceptsSection = document.getElementById("concepts");
    if (conceptsSection && state.concepts) {  // the concept items open and close together
      conceptsSection.toggleAttribute("data-closed", !state.concepts.open);
      for (const button of conceptsSection.querySelectorAll("button")) button.disabled = !state.concepts.open;
    }
    const changed = [];
    for (const [problem, info] of Object.entries(state.problems)) {
      const section = document.querySelector(`section[data-problem="${CSS.escape(problem)}"]`);
      if (!section) continue;
      const before = shownProblems[problem];
      if (before && !before.open && info.open) changed.push(problem);  // opened again: draw it afresh
      section.toggleAttribute("data-closed", !info.open);
      let note = section.querySelector("[data-closed-note]");
      const variants = document.querySelectorAll(`section[data-variant-of="${CSS.escape(problem)}"]`);
      for (const one of variants) one.toggleAttribute("data-closed", !info.open);
      if (!info.open) {
        for (const control of section.querySelectorAll(".practice input, .practice button")) control.disabled = true;
        for (const one of variants) for (const control of one.querySelectorAll(".practice input, .practice button")) control.disabled = true;
        if (!note) {
          note = AT.page.el("p", { class: "notice", "data-closed-note": true, text: t("live.closed") });
          section.querySelector("h2").after(note);
        }
      } else if (note) {
        note.remove();
      }
      let solution = section.querySelector("[data-solution]");
      if (info.revealed && info.solution_html && !solution) {
        const body = AT.page.el("div", { class: "givens solution-body" });
        body.innerHTML = info.solution_html;  // our own HTML, escaped by attn_tutor.render.html
        solution = AT.page.el("div", { class: "solution", "data-solution": true }, AT.page.el("h3", { text: t("live.solution") }), body);
        section.append(solution);
      } else if (!info.revealed && solution) {
        solution.remove();
      }
    }
    shownProblems = state.problems;
    if (changed.length) location.reload();
  }

  function showMark(node, answer) {
    node.setAttribute("data-server-verdict", answer.verdict);
    if (MODE !== "exam") return;  // the page marked it already, as the server did
    node.setAttribute("data-verdict", answer.verdict);
    node.setAttribute("data-points", String(answer.points));
    node.setAttribute("data-diagnosis", answer.diagnosis || "");
    const message = node.querySelector(".message");
    if (!message) return;
    const lines = [AT.page.el("p", { class: "verdict", text: t("live.server_mark", { verdict: t(`grading.verdict.${answer.verdict}`), points: AT.numbers.fmtGiven(answer.points, 2) }) })];
    if (answer.diagnosis) lines.push(AT.page.el("p", { class: "diagnosis", "data-diagnosis-text": answer.diagnosis, text: t(`grading.diagnosis.${answer.diagnosis}`) }));
    message.replaceChildren(...lines);
  }

  // A saved choice put back on the page: its options pressed as the student pressed them.
  function restoreChoice(concept, text) {
    const section = conceptNode(concept);
    if (!section || section.hasAttribute("data-verdict") || section.querySelector('[aria-disabled="true"]')) return;
    for (const label of text.split(/[\s,]+/).filter(Boolean)) {
      const button = conceptNode(concept).querySelector(`button[data-option="${CSS.escape(label)}"]`);
      if (button) button.click();
    }
    const check = conceptNode(concept).querySelector('button[data-action="check"]');
    if (check && !check.hidden) check.click();  // several right options: chosen, then checked
  }

  // The server's mark of a choice, once the student may see it (in an exam: after the items close).
  function showChoiceMark(node, answer) {
    node.setAttribute("data-server-verdict", answer.verdict);
    if (MODE !== "exam") return;  // the page marked it already, as the server did
    node.setAttribute("data-verdict", answer.verdict);
    node.setAttribute("data-points", String(answer.points));
    for (const button of node.querySelectorAll("button[data-option]")) {
      const label = button.getAttribute("data-option");
      if (answer.chosen.includes(label)) button.setAttribute("data-verdict", answer.answer.includes(label) && answer.verdict === "correct" ? "correct" : "wrong");
    }
    const message = node.querySelector(".message");
    if (!message) return;
    const lines = [AT.page.el("p", { class: "verdict", text: t("live.server_mark", { verdict: t(`grading.verdict.${answer.verdict}`), points: answer.points }) })];
    if (answer.feedback && answer.verdict !== "correct") lines.push(AT.page.el("p", { class: "diagnosis", "data-feedback": answer.chosen.join(" "), text: answer.feedback }));
    if (answer.verdict !== "correct") lines.push(AT.page.el("p", { "data-answer": answer.answer.join(" "), text: t("page.concept_answer", { labels: answer.answer.join(" ") }) }));
    if (answer.explanation) lines.push(AT.page.el("p", { class: "explanation", text: t("page.concept_why", { text: answer.explanation }) }));
    message.replaceChildren(...lines);
  }

  // --- sending ---------------------------------------------------------------------------

  function checked(detail) {
    const key = keyOf(detail);
    if (!restoring) typedSet(key, "");  // checked: the queue keeps it now
    updateAnother();
    if (restoring && acked[key] === detail.text) {
      savedSign(detail.node, "true");
      return;
    }
    savedSign(detail.node, null);
    if (restoring && queue().some((a) => keyOf(a) === key && a.text === detail.text)) return;
    const item = detail.concept !== undefined ? { concept: detail.concept } : { problem: detail.problem, row: detail.row, stage: detail.stage };
    if (detail.variant !== undefined) item.variant = detail.variant;
    setQueue([...queue(), { ...item, text: detail.text, client_id: randomId() }]);
    status();
    flush();
  }

  function retryLater() {
    if (retryTimer !== null) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      delay = Math.min(delay * 2, 15000);
      if (!joined) refresh(); else flush();
    }, delay);
  }

  async function flush() {
    if (flushing || !joined) return;
    flushing = true;
    try {
      while (queue().length) {
        const answer = queue()[0];
        let result;
        try {
          result = await call("POST", "/api/answer", answer);
        } catch (error) {
          retryLater();
          break;
        }
        if (result.status === 401) {  // the server does not know this browser (a new cookie jar): rejoin
          joined = false;
          refresh();
          break;
        }
        if (result.status === 403) {
          await call("GET", "/api/state").catch(() => null);  // a fresh security token
          result = await call("POST", "/api/answer", answer).catch(() => ({ status: 0, ok: false, payload: {} }));
        }
        if (result.status === 0 || result.status === 423 || result.status === 429 || result.status >= 500) {  // 423: paused; sent once resumed
          retryLater();
          break;
        }
        const rest = queue().filter((a) => a.client_id !== answer.client_id);
        setQueue(rest);
        const node = nodeOf(answer);
        const refused = read("refused", []).filter((a) => keyOf(a) !== keyOf(answer));
        write("refused", result.status === 409 ? [...refused, answer] : refused);  // closed meanwhile: kept, sent if it reopens
        if (result.ok) {
          delay = 1000;
          acked[keyOf(answer)] = answer.text;
          if (node && !rest.some((a) => keyOf(a) === keyOf(answer))) {
            savedSign(node, "true");
            if (result.payload.verdict !== undefined) (answer.concept !== undefined ? showChoiceMark : showMark)(node, result.payload);
          }
        } else if (node) {  // refused for good (closed, unreadable): said on its stage
          savedSign(node, "false");
          const message = node.querySelector(".message");
          if (message) message.append(AT.page.el("p", { class: "error", "data-refused": String(result.status), text: t("live.refused", { message: result.payload.error || String(result.status) }) }));
        }
      }
    } finally {
      flushing = false;
      status();
    }
  }

  // --- "another like this" (practice only) --------------------------------------------------------
  // After a stage of a problem (or of a variant of it) is marked wrong or partly right, a button under
  // the problem asks the server for a fresh variant (POST /api/another); it is drawn below as a
  // problem of its own, marked on the page as the problem is, and its stages sent with their variant.
  // The variants drawn are in /api/state: a reload draws them again (their data asked for once more).
  const drawn = new Set();  // problem@seed on the page

  function showVariant(problem, reply) {
    const key = problemKey(problem, reply.variant);
    if (drawn.has(key)) return problemSection(problem, reply.variant);
    drawn.add(key);
    const section = AT.page.variantSection(reply.data, reply.variant, reply.title, t("live.another_note"));
    const after = [...document.querySelectorAll(`section[data-variant-of="${CSS.escape(problem)}"]`)].pop() || problemSection(problem);
    after.after(section);
    return section;
  }

  async function drawVariants(state) {
    if (MODE === "exam") return;
    for (const { problem, variant } of state.variants || []) {
      if (drawn.has(problemKey(problem, variant)) || !problemSection(problem)) continue;
      let result;
      try {
        result = await call("POST", "/api/another", { problem, variant });
      } catch (error) {
        return;  // the next look at the state tries again
      }
      if (result.ok) showVariant(problem, result.payload);
    }
  }

  function anotherButton(section) {
    let box = section.querySelector(":scope > [data-another-box]");
    if (box) return box.querySelector('button[data-action="another"]');
    const problem = section.getAttribute("data-problem");
    const button = AT.page.el("button", { type: "button", class: "secondary", "data-action": "another", "data-problem-ref": problem, text: t("live.another") });
    const said = AT.page.el("p", { class: "note", "data-another-status": true, "aria-live": "polite" });
    box = AT.page.el("div", { class: "another", "data-another-box": true }, button, said);
    box.hidden = true;
    section.append(box);
    button.addEventListener("click", () => another(problem, button, said));
    return button;
  }

  function updateAnother() {
    if (MODE === "exam") return;  // an exam has no "another like this"
    for (const section of document.querySelectorAll("section[data-problem]")) {
      const problem = section.getAttribute("data-problem");
      const variants = [...document.querySelectorAll(`section[data-variant-of="${CSS.escape(problem)}"]`)];
      const stumbled = [section, ...variants].some((s) => s.querySelector('[data-stage-block][data-verdict="wrong"], [data-stage-block][data-verdict="partial"]'));
      const button = anotherButton(section);
      button.closest("[data-another-box]").hidden = !stumbled;
    }
  }

  async function another(problem, button, said) {
    button.disabled = true;
    said.textContent = t("live.another_wait");
    let result;
    try {
      result = await call("POST", "/api/another", { problem });
      if (result.status === 403) {
        await call("GET", "/api/state").catch(() => null);  // a fresh security token
        result = await call("POST", "/api/another", { problem });
      }
    } catch (error) {
      result = { ok: false, payload: { error: t("live.reconnecting") } };
    } finally {
      button.disabled = false;
    }
    if (!result.ok) {
      said.textContent = result.payload.error || t("live.reconnecting");
      return;
    }
    said.textContent = "";
    const section = showVariant(problem, result.payload);
    section.scrollIntoView();
    section.focus();
  }

  function ready() {
    const form = document.getElementById("join");
    const problems = document.getElementById("problems");
    if (problems) problems.hidden = true;
    if (form) {
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        const input = form.querySelector("[data-join-name]");
        const name = input.value.trim();
        if (!name) {
          document.getElementById("join-error").textContent = t("live.join_need_name");
          input.focus();
          return;
        }
        join(name, false);
      });
    }
    watchTyping();
    window.addEventListener("online", () => { delay = 1000; flush(); });
    document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") refresh(); });
    setInterval(() => { if (queue().length) flush(); refresh(); }, POLL);
    refresh();
  }

  AT.hooks = { checked, ready, exam: MODE === "exam", live: true };
  AT.live = { queue, flush, refresh };
})(globalThis.AttnTutor = globalThis.AttnTutor || {});
