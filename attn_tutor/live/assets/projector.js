// The projector's page of `attn-tutor serve` (/teacher/projector): no name and no one's score. It draws
// the view in <script id="projector-data"> at once, then each one /teacher/projector/events sends
// (server-sent events, after every change): the counts, the QR code (large until someone answers,
// or as the teacher toggles it), the item in focus with how many checked each of its stages
// (data-progress-stage), each round's bars of verdicts and mistakes (data-round, data-bar-verdict,
// data-bar-diagnosis: the count as text, the share beside it) unless the results are hidden, and
// the score distribution. Every text is set with textContent; the sentences are the catalogue's.
(function () {
  "use strict";

  const DATA = JSON.parse(document.getElementById("projector-data").textContent);
  const M = DATA.messages;
  const SIGNS = { correct: "\u2713", follow_through: "\u21aa", partial: "\u25d0", wrong: "\u2717" };  // not colour alone
  const t = (key, args) => (M[key] || key).replace(/\{(\w+)\}/g, (whole, name) => (args && name in args ? String(args[name]) : whole));
  let qrChosen = null;  // the teacher's toggle: null follows the class (large until someone answers)

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) {
      if (name === "text") node.textContent = value;
      else if (value !== null && value !== false && value !== undefined) node.setAttribute(name, value === true ? "" : value);
    }
    node.append(...children);
    return node;
  }

  const percent = (share) => `${Math.round(share * 100)}%`;

  // One bar: its name (a sign and words), the bar drawn to its share, the count (the element's text) and the share.
  function bar(kind, attrs, name, count, share) {
    const fill = el("span", { class: "fill", "aria-hidden": "true" });
    fill.style.width = `${Math.max(0, Math.min(1, share)) * 100}%`;
    return el("li", { class: `pbar ${kind}` },
      el("span", { class: "name", text: name }),
      el("span", { class: "track", "aria-hidden": "true" }, fill),
      el("span", { class: "count", ...attrs, text: String(count) }),
      el("span", { class: "share", text: percent(share) }));
  }

  function roundGroup(round) {
    const title = round.variant !== null && round.variant !== undefined ? t("live.round_fresh", { round: round.round }) : t("live.round", { round: round.round });
    const verdicts = el("ul", { class: "bars verdicts" }, ...round.verdicts.map((v) =>
      bar(`verdict-${v.verdict}`, { "data-bar-verdict": v.verdict }, `${SIGNS[v.verdict] || ""} ${v.label}`, v.count, v.share)));
    const mistakes = round.diagnoses.length
      ? el("ul", { class: "bars diagnoses" }, ...round.diagnoses.map((d) => bar("diagnosis", { "data-bar-diagnosis": d.code }, d.name, d.count, d.share)))
      : el("p", { class: "none", text: t("live.no_mistakes") });
    return el("section", { class: "round", "data-round": String(round.round) },
      el("h3", { text: title }), el("p", { class: "answers", text: t("live.round_answers", { count: round.answers }) }),
      verdicts, el("h4", { text: t("live.mistakes_title") }), mistakes);
  }

  function render(view) {
    document.body.setAttribute("data-paused", String(Boolean(view.paused)));
    document.querySelector("[data-counts]").textContent = t("live.counts", { joined: view.joined, answered: view.answered });
    document.querySelector("[data-projector-paused]").hidden = !view.paused;
    const qr = document.querySelector("[data-qr]");
    const large = qrChosen !== null ? qrChosen : view.answered === 0;
    qr.setAttribute("data-qr", large ? "large" : "small");
    document.querySelector("[data-qr-toggle]").setAttribute("aria-pressed", String(large));
    const focus = view.focus;
    document.querySelector("[data-focus-label]").textContent = focus ? `${focus.label} \u00b7 ${t("live.round", { round: focus.round })}` : t("live.no_focus");
    document.querySelector("[data-focus-answered]").textContent = focus ? t("live.focus_answered", { count: focus.answered }) : "";
    document.querySelector("[data-results-hidden]").hidden = !(focus && focus.hidden);
    document.getElementById("progress-title").hidden = !focus;
    document.querySelector("[data-progress]").replaceChildren(...(focus ? focus.stages : []).map((s) =>
      el("li", {}, el("span", { class: "name", text: s.label }), " ", el("span", { class: "count", "data-progress-stage": s.stage, text: String(s.checked) }))));
    document.querySelector("[data-rounds]").replaceChildren(...(focus && focus.rounds ? focus.rounds : []).map(roundGroup));
    const most = Math.max(1, ...view.distribution.map((b) => b.count));
    document.querySelector("[data-distribution]").replaceChildren(...view.distribution.map((b) =>
      bar("score", { "data-distribution-bin": String(b.low) }, b.label, b.count, b.count / most)));
    for (const share of document.querySelectorAll("[data-distribution] .share")) share.remove();  // a count of students, no share
  }

  document.querySelector("[data-qr-toggle]").addEventListener("click", () => {
    const now = document.querySelector("[data-qr]").getAttribute("data-qr") === "large";
    qrChosen = !now;
    document.querySelector("[data-qr]").setAttribute("data-qr", qrChosen ? "large" : "small");
    document.querySelector("[data-qr-toggle]").setAttribute("aria-pressed", String(qrChosen));
  });

  const status = (text) => { document.getElementById("projector-status").textContent = text; };
  render(DATA.view);
  const events = new EventSource("/teacher/projector/events");
  events.addEventListener("map", (event) => { status(""); render(JSON.parse(event.data)); });
  events.addEventListener("error", () => status(t("live.reconnecting")));
})();
