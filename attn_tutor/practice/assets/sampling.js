// A sampling problem's numbers, stage by stage: a port of attn_tutor/kinds/sampling/engine.py,
// function for function (the same names in camelCase, the same order of float operations, math.fsum
// ported as fsum), so the page's numbers equal `attn-tutor solve`'s (tests/golden/sampling.json,
// made by tests/tools/make_sampling_golden.py, holds the two equal to 1e-12 on every stage).
//
// The rules (engine.py's docstring): scaled z/T; exp e^(z/T) (shifted: e^(z/T - max)); probabilities
// e^x / Σ e^x; kept: top_k keeps the k most likely (a tie at the edge: the token listed first), top_p
// keeps tokens from the most likely down until their sum reaches p, the kept ones divided by their
// sum; pick: greedy without a draw, else the token whose interval [low, high) (token order, kept
// probabilities) holds u; loss -ln p(target) from the probabilities before truncation; a
// continuation's perplexity e^(mean loss).
//
// A problem here is plain data (practice/data.py sampling_widget_data, or the golden cases):
// {tokens, steps: [{logits, target}], temperature, top_k, top_p, draw, continuation}; None is null.
// A token cut by top-k or top-p is null in `kept` and `intervals`.
(function (AT) {
  "use strict";

  const EDGE = 1e-12;  // how close a cumulative sum may come to top_p and still reach it

  const none = (x) => x === null || x === undefined;

  // Python's math.fsum (CPython's msum, correctly rounded): the exact sum of the values, rounded once.
  function fsum(values) {
    const partials = [];
    let specialSum = 0, infSum = 0;
    for (let x of values) {
      const xsave = x;
      let i = 0;
      for (let y of partials) {
        if (Math.abs(x) < Math.abs(y)) { const swap = x; x = y; y = swap; }
        const hi = x + y;
        const lo = y - (hi - x);
        if (lo !== 0) partials[i++] = lo;
        x = hi;
      }
      partials.length = i;
      if (x !== 0) {
        if (!Number.isFinite(x)) {
          // a non-finite summand: its sum is the result (CPython's "intermediate overflow" cannot
          // arise here: every number a sampling problem sums is at most a probability or e^x)
          if (!Number.isFinite(xsave) && !Number.isNaN(xsave)) infSum += xsave;
          specialSum += xsave;
          partials.length = 0;
        } else {
          partials.push(x);
        }
      }
    }
    if (specialSum !== 0) return Number.isNaN(infSum) ? NaN : specialSum;
    let n = partials.length;
    let hi = 0;
    if (n > 0) {
      hi = partials[--n];
      let lo = 0;
      while (n > 0) {  // sum from the top, stopping when the sum becomes inexact
        const x = hi;
        const y = partials[--n];
        hi = x + y;
        lo = y - (hi - x);
        if (lo !== 0) break;
      }
      // half-way cases: make the rounding come out as if the rest of the partials were added
      if (n > 0 && ((lo < 0 && partials[n - 1] < 0) || (lo > 0 && partials[n - 1] > 0))) {
        const y = lo * 2;
        const x = hi + y;
        if (y === x - hi) hi = x;
      }
    }
    return hi;
  }

  function scale(logits, temperature) {
    return logits.map((z) => z / temperature);
  }

  // e^x of each (shift: of x minus the largest); Infinity where e^x is past a float (as engine.py's inf).
  function exponentials(scaled, { shift = false } = {}) {
    const top = shift ? Math.max(...scaled) : 0;
    return scaled.map((x) => Math.exp(x - top));
  }

  // Each value over their sum (null stays null); NaN for each when the sum is 0 or not finite.
  function normalise(values) {
    const total = fsum(values.filter((v) => !none(v)));
    if (total === 0 || !Number.isFinite(total)) return values.map((v) => (none(v) ? null : NaN));
    return values.map((v) => (none(v) ? null : v / total));
  }

  // The probabilities from scaled logits (the largest subtracted first: never overflows).
  function softmax(scaled) {
    return normalise(exponentials(scaled, { shift: true }));
  }

  // Token indices from the most likely down; a tie: the token listed first.
  function ranked(probabilities) {
    const present = [];
    probabilities.forEach((p, i) => { if (!none(p)) present.push(i); });
    return present.sort((a, b) => {
      const pa = probabilities[a], pb = probabilities[b];
      return pa > pb ? -1 : pa < pb ? 1 : a - b;
    });
  }

  // The tokens top-k or top-p keeps (every token without either), as a Set of indices. `late` moves
  // top-p's cut by that many tokens (a mistake's row: -1 one early, +1 one late).
  function keptSet(probabilities, topK, topP, { late = 0 } = {}) {
    const order = ranked(probabilities);
    if (!none(topK)) return new Set(order.slice(0, topK));
    if (none(topP)) return new Set(order);
    let total = 0, count = 0;
    for (const i of order) {
      total += probabilities[i];
      count += 1;
      if (total >= topP - EDGE) break;
    }
    count = Math.min(Math.max(count + late, 1), order.length);
    return new Set(order.slice(0, count));
  }

  // The kept tokens' probabilities, divided by their sum (renormalise), null for the others.
  function truncate(probabilities, keep, { renormalise = true } = {}) {
    const cut = probabilities.map((p, i) => (keep.has(i) ? p : null));
    return renormalise ? normalise(cut) : cut;
  }

  // Each kept token's interval [low, high) of [0, 1), in token order (null for a token cut).
  function intervals(kept) {
    let low = 0;
    return kept.map((p) => {
      if (none(p)) return null;
      const span = [low, low + p];
      low += p;
      return span;
    });
  }

  // The index of the token picked: greedy without a draw, else the interval holding it.
  function pick(kept, draw) {
    const present = [];
    kept.forEach((p, i) => { if (!none(p)) present.push(i); });
    if (none(draw)) return ranked(kept)[0];
    const spans = intervals(kept);
    for (let i = 0; i < spans.length; i++) {
      if (spans[i] !== null && draw < spans[i][1]) return i;
    }
    return present[present.length - 1];
  }

  // -log p (natural by default); Infinity for p = 0.
  function loss(probability, base = Math.E) {
    if (probability <= 0) return Infinity;
    return -Math.log(probability) / Math.log(base);
  }

  function perplexity(losses) {
    const mean = fsum(losses) / losses.length;
    return Math.exp(mean);  // Infinity past a float, as engine.py's OverflowError caught
  }

  function solveStep(problem, logits, target) {
    const scaled = scale(logits, problem.temperature);
    const exps = exponentials(scaled);
    const shifted = exponentials(scaled, { shift: true });
    const probabilities = softmax(scaled);
    const kept = truncate(probabilities, keptSet(probabilities, problem.top_k, problem.top_p));
    const t = none(target) ? null : problem.tokens.indexOf(target);
    return {
      logits, scaled, exps, shifted,
      exp_sum: fsum(exps),
      shifted_sum: fsum(shifted),
      probabilities, kept,
      intervals: intervals(kept),
      pick: pick(kept, problem.draw),
      target: t,
      loss: t === null ? null : loss(probabilities[t]),
    };
  }

  // The problem worked out: {problem, steps: [one a step], perplexity (a continuation's, else null)}.
  function solve(problem) {
    const steps = problem.steps.map((step) => solveStep(problem, step.logits, none(step.target) ? null : step.target));
    let ppl = null;
    if (problem.continuation) ppl = perplexity(steps.filter((s) => s.loss !== null).map((s) => s.loss));
    return { problem, steps, perplexity: ppl };
  }

  // SamplingSolution.stage_values: a stage's expected cells, in token order (pick: the token; a
  // continuation's loss: one a step).
  function stageValues(solution, stage) {
    const step = solution.steps[0];
    if (stage === "loss") return solution.problem.continuation ? solution.steps.map((s) => s.loss) : [step.loss];
    if (stage === "perplexity") return [solution.perplexity];
    if (stage === "pick") return [solution.problem.tokens[step.pick]];
    const by = { scaled: step.scaled, exp: step.exps, probabilities: step.probabilities, kept: step.kept };
    if (!(stage in by)) throw new Error("no stage " + stage);
    return by[stage];
  }

  AT.sampling = {
    EDGE, fsum, scale, exponentials, normalise, softmax, ranked, keptSet, truncate, intervals, pick, loss, perplexity,
    solveStep, solve, stageValues,
  };
})(globalThis.AttnTutor = globalThis.AttnTutor || {});
