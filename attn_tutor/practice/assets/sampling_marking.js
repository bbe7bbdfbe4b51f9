// A sampling problem's answers marked stage by stage: a port of attn_tutor/kinds/sampling/marking.py,
// function for function (the same names in camelCase), so a number typed on the page gets the verdict
// `attn-tutor grade` gives it (tests/golden/sampling_marking.json, made by
// tests/tools/make_sampling_golden.py, holds the two equal in Chromium).
//
// The rules (marking.py's docstring): a cell is correct within the stage's window of the exact value;
// follow_through within the same width of the value carried from the student's own latest earlier
// stage (carry: sampling.js's engine functions); else wrong; a token cut by top-k/top-p typed 0 or
// left out (null) is masked. A wrong item is compared with each known mistake's row (mistakeRows) and
// the first that matches every cell names it.
//
// The windows: each stage's tolerance (marking.tolerances) and each exact cell's window
// (marking.windows on the exact row, and on e^(z/T - max) for exp) come from Python, in the page's
// data (practice/data.py sampling_data: tolerances, bounds, bounds_shifted); a window around a
// student's own carried number is tolerance.window's decimal arithmetic, ported here (windowFloats).
//
// A problem here is the page's data: {id, tokens, steps: [{logits, target}], temperature, top_k,
// top_p, draw, continuation, decimals, stages, asked_stages, tolerances, bounds, bounds_shifted}.
(function (AT) {
  "use strict";

  const EPS = 1e-9;
  const WINDOW_PLACES_MORE = 3;  // marking/tolerance.py
  const ALL_STAGES = ["scaled", "exp", "probabilities", "kept", "pick", "loss", "perplexity"];
  const CODES = [
    "temperature_multiplied", "temperature_ignored", "temperature_after_softmax", "exp_not_normalized",
    "not_renormalized", "top_p_boundary", "top_k_tie", "ignored_draw", "draw_wrong_end", "log_base", "loss_sign",
  ];

  const S = () => AT.sampling;
  const none = (x) => x === null || x === undefined;

  // --- tolerance.window: exact ± tolerance in decimal arithmetic, each end rounded outward ------

  // repr(float) as an exact decimal: [BigInt digits, exponent] (value = digits × 10^exponent).
  function decimalOf(x) {
    const text = String(x);
    const [mantissa, power] = text.toLowerCase().split("e");
    const [whole, fraction = ""] = mantissa.split(".");
    const digits = BigInt((whole + fraction).replace("+", "") || "0");
    return [digits, Number(power || 0) - fraction.length];
  }

  const tenTo = (n) => 10n ** BigInt(n);

  function windowPlaces(exact, tolerance, decimals) {
    const magnitude = Math.abs(exact) + Math.abs(tolerance);
    const digits = magnitude < 1 ? 1 : Math.floor(Math.log10(magnitude)) + 1;
    return Math.max(decimals + 1, Math.min(decimals + WINDOW_PLACES_MORE, 15 - digits));
  }

  // (a, floor or ceil) at `places` decimals, as a float (Python's float(Decimal): correctly rounded, as parseFloat).
  function quantized(digits, exponent, places, up) {
    // value = digits × 10^exponent; the multiple of 10^-places below (floor) or above (ceil) it
    let q;
    const shift = exponent + places;  // value × 10^places = digits × 10^shift
    if (shift >= 0) {
      q = digits * tenTo(shift);
    } else {
      const d = tenTo(-shift);
      q = digits / d;  // BigInt division truncates toward zero
      const exact = q * d === digits;
      if (!exact) {
        if (up && digits > 0n) q += 1n;
        if (!up && digits < 0n) q -= 1n;
      }
    }
    const negative = q < 0n;
    let text = (negative ? -q : q).toString().padStart(places + 1, "0");
    text = places > 0 ? text.slice(0, text.length - places) + "." + text.slice(text.length - places) : text;
    return parseFloat((negative ? "-" : "") + text);
  }

  // tolerance.window_floats: [low, high], or [NaN, NaN] for a number not finite.
  function windowFloats(exact, tolerance, decimals) {
    if (!(Number.isFinite(exact) && Number.isFinite(tolerance))) return [NaN, NaN];
    const places = windowPlaces(exact, tolerance, decimals);
    const [vd, ve] = decimalOf(exact);
    const [td, te] = decimalOf(tolerance);
    const e = Math.min(ve, te);
    const v = vd * tenTo(ve - e), tol = td * tenTo(te - e);
    return [quantized(v - tol, e, places, false), quantized(v + tol, e, places, true)];
  }

  // --- marking.py ------------------------------------------------------------------------

  function shown(values, decimals) {
    return values.map((v) => (none(v) || typeof v === "string" || !Number.isFinite(v) ? v : AT.numbers.roundHalfUp(v, decimals)));
  }

  // marking.carry: `stage` worked from a student's own row of the stage `before` it (null: cannot be).
  function carry(problem, stage, before, basis, step = 0) {
    const E = S();
    const steps = problem.steps;
    try {
      if (stage === "exp" && before === "scaled") return E.exponentials(basis);
      if (stage === "probabilities") return before === "exp" ? E.normalise(basis) : E.softmax(basis);
      if (stage === "kept") {
        const p = probabilitiesFrom(before, basis);
        return E.truncate(p, E.keptSet(p, problem.top_k, problem.top_p));
      }
      if (stage === "pick") {
        const kept = before === "kept" ? basis : carry(problem, "kept", before, basis);
        if (kept === null || kept.every((v) => v === null || v === undefined)) return null;  // nothing kept: no token to follow through to
        return [problem.tokens[E.pick(kept, problem.draw)]];
      }
      if (stage === "loss" && !problem.continuation) {
        const p = probabilitiesFrom(before, basis);
        return [E.loss(p[problem.tokens.indexOf(steps[step].target)])];
      }
      if (stage === "perplexity" && before === "loss") return [E.perplexity(basis)];
    } catch (error) {
      if (error instanceof RangeError || error instanceof TypeError) return null;
      throw error;
    }
    return null;
  }

  function probabilitiesFrom(before, basis) {
    const E = S();
    if (before === "probabilities") return basis.slice();
    if (before === "exp") return E.normalise(basis);
    if (before === "scaled") return E.softmax(basis);
    throw new RangeError(before);
  }

  // marking.windows: each cell's window around `values` (null where a token is cut, or for pick).
  function windows(problem, stage, values) {
    const tol = problem.tolerances[stage];
    return values.map((v) => (none(v) || typeof v === "string" ? null : windowFloats(v, tol, problem.decimals)));
  }

  const within = (value, window) => window !== null && window !== undefined && !none(value) && window[0] - EPS <= value && value <= window[1] + EPS;

  // marking.cell_states; `ok`: the windows of `right` (the page's data, from Python).
  function cellStates(problem, stage, given, right, carried, ok) {
    if (stage === "pick") {
      if (given[0] === right[0]) return ["correct"];
      return carried !== null && given[0] === carried[0] ? ["follow_through"] : ["wrong"];
    }
    const own = carried !== null ? windows(problem, stage, carried) : null;
    return given.map((value, i) => {
      if (none(right[i])) return none(value) || value === 0 ? "masked" : "wrong";
      if (within(value, ok[i])) return "correct";
      if (own !== null && within(value, own[i])) return "follow_through";
      return "wrong";
    });
  }

  // marking.mistake_rows: [code, the row that mistake makes] for `stage`, in the order they are tried.
  function mistakeRows(solution, stage) {
    const E = S();
    const problem = solution.problem, step = solution.steps[0];
    const T = problem.temperature, z = step.logits;
    const rows = [];
    if (problem.continuation) return continuationRows(solution, stage);
    if (["scaled", "exp", "probabilities"].includes(stage)) {
      for (const [code, scaled] of [["temperature_multiplied", z.map((v) => v * T)], ["temperature_ignored", z.slice()]]) {
        const by = { scaled, exp: E.exponentials(scaled), probabilities: E.softmax(scaled) };
        rows.push([code, by[stage]]);
      }
    }
    if (stage === "probabilities") {
      const plain = E.softmax(z);
      rows.push(["temperature_after_softmax", plain.map((p) => p / T)]);
      rows.push(["temperature_after_softmax", plain.map((p) => p ** (1 / T))]);
      rows.push(["exp_not_normalized", step.exps]);
      rows.push(["exp_not_normalized", step.shifted]);
    }
    const p = step.probabilities;
    const truncation = !none(problem.top_k) || !none(problem.top_p);
    if (stage === "kept" && truncation) {
      const keep = E.keptSet(p, problem.top_k, problem.top_p);
      rows.push(["not_renormalized", E.truncate(p, keep, { renormalise: false })]);
      if (!none(problem.top_p)) {
        for (const late of [-1, 1]) {
          const other = E.keptSet(p, null, problem.top_p, { late });
          rows.push(["top_p_boundary", E.truncate(p, other)], ["top_p_boundary", E.truncate(p, other, { renormalise: false })]);
        }
      }
      if (!none(problem.top_k)) rows.push(["top_k_tie", E.truncate(p, otherTie(p, problem.top_k))]);
    }
    if (stage === "pick" && !none(problem.draw)) {
      rows.push(["ignored_draw", [problem.tokens[E.pick(step.kept, null)]]]);
      rows.push(["draw_wrong_end", [problem.tokens[E.pick(step.kept, 1 - problem.draw)]]]);
    }
    if (stage === "loss" && step.target !== null) {
      const q = p[step.target];
      rows.push(["log_base", [E.loss(q, 10)]], ["log_base", [E.loss(q, 2)]], ["loss_sign", [-E.loss(q)]]);
    }
    return rows;
  }

  function continuationRows(solution, stage) {
    const E = S();
    const probabilities = solution.steps.map((s) => s.probabilities[s.target]);
    if (stage === "loss") {
      return [
        ["log_base", probabilities.map((q) => E.loss(q, 10))],
        ["log_base", probabilities.map((q) => E.loss(q, 2))],
        ["loss_sign", probabilities.map((q) => -E.loss(q))],
      ];
    }
    const losses = solution.steps.map((s) => s.loss);
    const mean = E.fsum(losses) / losses.length;
    return [["log_base", [10 ** mean]], ["log_base", [2 ** mean]]];
  }

  // Top-k with a tie at its edge broken the wrong way (the token listed last kept).
  function otherTie(p, k) {
    const order = p.map((_, i) => i).sort((a, b) => (p[a] > p[b] ? -1 : p[a] < p[b] ? 1 : b - a));
    return new Set(order.slice(0, k));
  }

  const sameRow = (a, b) => a.length === b.length && a.every((v, i) => v === b[i] || (none(v) && none(b[i])));

  // marking.diagnose: the first known mistake whose row matches every cell of `given`.
  function diagnose(solution, stage, given, right) {
    const problem = solution.problem;
    for (const [code, made] of mistakeRows(solution, stage)) {
      if (made.length !== given.length || sameRow(made, right)) continue;
      if (stage === "pick") {
        if (given[0] === made[0]) return code;
        continue;
      }
      if (matches(problem, stage, given, made)) return code;
    }
    return null;
  }

  // marking._matches: every cell within the stage's tolerance and one displayed unit more, or 0.5% of its size.
  function matches(problem, stage, given, made) {
    const width = problem.tolerances[stage] + Number(`1e-${problem.decimals}`);
    for (let i = 0; i < given.length && i < made.length; i++) {
      const value = given[i], target = made[i];
      if (none(target) && (none(value) || value === 0)) continue;
      if (none(value) !== none(target)) return false;
      if (!none(value) && !(Math.abs(value - target) <= Math.max(width, 0.005 * Math.abs(target)))) return false;
    }
    return true;
  }

  // results.verdict_of
  function verdictOf(cells) {
    const marked = cells.filter((c) => c !== "masked");
    if (marked.every((c) => c === "missing")) return "missing";
    if (marked.every((c) => c === "correct")) return "correct";
    const right = marked.map((c) => c === "correct" || c === "follow_through");
    if (right.every(Boolean)) return "follow_through";
    return right.some(Boolean) ? "partial" : "wrong";
  }

  // The page's problem as the engine's SamplingSolution (sampling.js solve), once.
  function solutionOf(problem) {
    if (!problem._solved) Object.defineProperty(problem, "_solved", { value: S().solve(problem), enumerable: false });
    return problem._solved;
  }

  const exact = (solution, stage) => S().stageValues(solution, stage).slice();

  // marking.mark_stage: one stage marked; `own` holds the student's rows of earlier stages.
  function markStage(problem, stage, given, own, options = {}) {
    const credit = options.credit === undefined ? 1.0 : options.credit;
    const hints = options.hints || 0;
    const solution = solutionOf(problem);
    let right = exact(solution, stage);
    let ok = problem.bounds[stage];
    if (stage === "exp") {  // e^(z/T - max) is as correct: marked against the row it is nearer
      const shifted = solution.steps[0].shifted.slice();
      if (given !== null && given.length === shifted.length
          && count(problem, stage, given, shifted, problem.bounds_shifted) > count(problem, stage, given, right, ok)) {
        right = shifted;
        ok = problem.bounds_shifted;
      }
    }
    const earlier = ALL_STAGES.slice(0, ALL_STAGES.indexOf(stage)).filter((s) => own && s in own);
    const carried = earlier.length ? carry(problem, stage, earlier[earlier.length - 1], own[earlier[earlier.length - 1]]) : null;
    const common = { problem: problem.id, row: "", stage, expected: right, hints, max_points: 1.0 };
    if (given === null || given === undefined || given.length !== right.length) {
      const cells = right.map((v) => (none(v) ? "masked" : "missing"));
      return Object.assign(common, { given: null, cells, verdict: "missing", diagnosis: null, points: 0.0, carried: null });
    }
    const cells = cellStates(problem, stage, given, right, carried, ok);
    const verdict = verdictOf(cells);
    const diagnosis = cells.includes("wrong") ? diagnose(solution, stage, given, right) : null;
    const scored = cells.filter((c) => c !== "masked").map((c) => ({ correct: 1.0, follow_through: credit }[c] || 0.0));
    const points = scored.length ? AT.numbers.pyRound(scored.reduce((a, b) => a + b, 0) / scored.length, 4) : 0.0;
    return Object.assign(common, { given: given.slice(), cells, verdict, diagnosis, points, carried });
  }

  function count(problem, stage, given, right, ok) {
    return cellStates(problem, stage, given, right, null, ok).filter((c) => c === "correct").length;
  }

  // marking.mark: one item per asked stage, in order; answers maps a stage to its cells (null: blank).
  function mark(problem, answers, options = {}) {
    const mode = options.mode || "exam";
    const asked = options.stages ? ALL_STAGES.filter((s) => options.stages.includes(s)) : problem.asked_stages;
    let own = {};
    const items = [];
    for (const stage of asked) {
      const given = stage in answers ? answers[stage] : null;
      items.push(markStage(problem, stage, given, own, { credit: options.credit }));
      if (given !== null && given !== undefined) {
        if (mode === "practice") own = {};
        own[stage] = given.slice();
      }
    }
    return items;
  }

  // marking.cell_count: a token each, a step each for a continuation's loss, else one.
  function cellCount(problem, stage) {
    if (["scaled", "exp", "probabilities", "kept"].includes(stage)) return problem.tokens.length;
    if (stage === "loss" && problem.continuation) return problem.steps.length;
    return 1;
  }

  AT.samplingMarking = {
    EPS, ALL_STAGES, CODES, windowPlaces, windowFloats, shown, carry, windows, cellStates, mistakeRows, diagnose,
    matches, verdictOf, solutionOf, markStage, mark, cellCount,
  };
})(globalThis.AttnTutor = globalThis.AttnTutor || {});
