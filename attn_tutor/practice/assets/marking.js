// Marking a student's rows: a port of attn_tutor/marking/marker.py, attn_tutor/marking/mistakes.py (the
// mistakes' rows) and the small engine functions that carry a student's numbers, one function
// for each of theirs, same names in camelCase (marker.Marker's memo is left out: a page marks
// one row at a time). The rules are marking/marker.py's module docstring. tests/golden/marking.json
// holds this port equal to the Python marker: the Python tests and the browser test run the
// same cases.
//
// A "solution" here is the page's data for one problem (attn_tutor/practice/data.py): the exact
// rows were computed by the Python engine; this file only computes from a student's numbers.
(function (AT) {
  "use strict";

  const STAGES = ["scores", "scaled", "weights", "output"];
  const VERDICTS = ["correct", "follow_through", "partial", "wrong", "missing"];
  const DIAGNOSES = ["not_scaled", "divided_by_d", "no_exp", "not_normalized", "skipped_scaling",
    "column_softmax", "transposed_scores", "used_keys", "ignored_mask", "rounding"];
  const MODES = ["practice", "exam"];
  const FOLLOW_THROUGH = { full: 1.0, half: 0.5, none: 0.0 };
  const EPS = 1e-12;
  const MAX_KEEP = 10;
  const ROUND_PLACES_AT_LEAST = 2; // mistakes.ROUND_PLACES_AT_LEAST
  const STAGE_ROUNDING = { scores: false, scaled: true, weights: true, output: true }; // "rounding" in mistakes.STAGE_DIAGNOSES
  const EXP_LIMIT = Math.log(Number.MAX_VALUE); // engine._EXP_LIMIT
  const ORDER = Object.fromEntries(DIAGNOSES.map((code, i) => [code, i]));

  // --- engine (attn_tutor/solve/engine.py): what the marker computes from a student's numbers ---

  // numpy's pairwise sum (np.sum of a float64 row), so sums agree to the last bit.
  function npSum(a) {
    const n = a.length;
    if (n < 8) {
      let res = 0.0;
      for (let i = 0; i < n; i++) res += a[i];
      return res;
    }
    if (n <= 128) {
      const r = a.slice(0, 8);
      let i;
      for (i = 8; i < n - (n % 8); i += 8) for (let j = 0; j < 8; j++) r[j] += a[i + j];
      let res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
      for (; i < n; i++) res += a[i];
      return res;
    }
    let n2 = Math.floor(n / 2);
    n2 -= n2 % 8;
    return npSum(a.slice(0, n2)) + npSum(a.slice(n2));
  }

  function scale(scores, divisor) { return scores.map((v) => v / divisor); }

  function softmax(x, mask) {
    const masked = x.map((v, j) => (mask[j] ? v : -Infinity));
    const top = Math.max(...masked);
    const e = masked.map((v, j) => (mask[j] ? Math.exp(v - top) : 0.0));
    const total = npSum(e);
    return e.map((v) => v / total);
  }

  function studentExps(scaled, mask) {
    return scaled.map((v, j) => {
      if (!mask[j]) return 0.0;
      return v > EXP_LIMIT ? Infinity : Math.exp(Math.min(v, EXP_LIMIT));
    });
  }

  function mix(weights, V) {
    const width = V[0].length;
    const out = [];
    for (let c = 0; c < width; c++) out.push(npSum(weights.map((w, j) => w * V[j][c])));
    return out;
  }

  const where = (mask, values, other) => values.map((v, j) => (mask[j] ? v : other));

  // --- shapes -------------------------------------------------------------------------

  function previousStage(stage) {
    const index = STAGES.indexOf(stage);
    return index > 0 ? STAGES[index - 1] : null;
  }

  function segments(solution, stage) {
    const result = [];
    let start = 0;
    for (const head of solution.heads) {
      const width = stage === "output" ? head.V[0].length : head.mask[0].length;
      result.push([start, start + width]);
      start += width;
    }
    return result;
  }

  function rowWidth(solution, stage) {
    const segs = segments(solution, stage);
    return segs[segs.length - 1][1];
  }

  function openCells(solution, row, stage) {
    if (stage === "output") return new Array(rowWidth(solution, stage)).fill(true);
    return [].concat(...solution.heads.map((head) => head.mask[row]));
  }

  function markedCells(solution, row, stage) {
    if (stage === "scores" || stage === "scaled") return openCells(solution, row, stage);
    return new Array(rowWidth(solution, stage)).fill(true);
  }

  function stageRow(solution, stage, row) {
    if (stage === "output") return solution.output[row].slice();
    return [].concat(...solution.heads.map((head) => head[stage][row]));
  }

  const slice = (values, seg) => values.slice(seg[0], seg[1]);

  // grading.stage_tolerance, grading.match_window and each cell's window (grading.cell_window,
  // [low, high] or null): worked out by Python, in the page's data.
  const stageTolerance = (solution, stage) => solution.tolerances[stage];
  const matchWindow = (solution, stage) => solution.windows[stage];
  const inWindow = (solution, stage, row, i, value) => {
    const bound = solution.bounds[stage][row][i];
    return bound !== null && bound[0] <= value && value <= bound[1];
  };

  function roundPlaces(solution) {
    // mistakes.round_places: 0, 1, 2 and every place up to the decimals
    return Array.from({ length: Math.max(solution.decimals, ROUND_PLACES_AT_LEAST) + 1 }, (_, places) => places);
  }

  // grading.half_up: each finite value rounded half up to `places`, as by hand.
  function halfUp(values, places) {
    return values.map((v) => (Number.isFinite(v) ? AT.numbers.roundHalfUp(v, places) : v));
  }

  // np.array_equal(a, b, equal_nan=True)
  const sameRow = (a, b) => a.length === b.length && a.every((v, i) => v === b[i] || (Number.isNaN(v) && Number.isNaN(b[i])));

  // --- carrying a student's own numbers forward --------------------------------------

  function carryForward(solution, row, stage, previous) {
    const before = previousStage(stage);
    if (before === null) throw new Error("the scores are computed from the givens");
    if (previous.length !== rowWidth(solution, before)) throw new Error("wrong width");
    const parts = [];
    segments(solution, before).forEach((seg, h) => {
      const head = solution.heads[h];
      const part = slice(previous, seg);
      const mask = head.mask[row];
      if (stage === "scaled") parts.push(...where(mask, scale(part, head.divisor), NaN));
      else if (stage === "weights") parts.push(...softmax(where(mask, part, 0.0), mask));
      else parts.push(...mix(part, head.V));
    });
    return parts;
  }

  function ptp(values) { return values.length ? Math.max(...values) - Math.min(...values) : 0; }

  // carrying._one_hot: within `limit` of a row of zeros with one 1 (at the first largest cell).
  function oneHot(weights, limit) {
    if (!weights.length || !weights.every(Number.isFinite)) return false;
    let top = 0;
    weights.forEach((w, i) => { if (w > weights[top]) top = i; });
    return weights.every((w, i) => Math.abs(w - (i === top ? 1.0 : 0.0)) <= limit);
  }

  // carrying.trivial_carry: no follow-through for work that needs none of its stage's arithmetic.
  function trivialCarry(solution, row, stage, previous) {
    const before = previousStage(stage);
    const flags = [];
    const prevSegs = segments(solution, before);
    const exact = stageRow(solution, before, row);
    const marked = markedCells(solution, row, before);
    const limit = stageTolerance(solution, before) + EPS;
    const oneHotLimit = stageTolerance(solution, "weights") + EPS;
    const carried = stage !== "output" ? carryForward(solution, row, stage, previous) : null;
    segments(solution, stage).forEach((seg, h) => {
      const head = solution.heads[h];
      const open = head.mask[row];
      const values = slice(previous, prevSegs[h]).filter((_, j) => open[j]);
      let trivial;
      if (stage === "scaled") {
        const made = slice(carried, seg).filter((_, j) => open[j]);
        trivial = made.every((v, j) => Math.abs(v - values[j]) <= EPS);
      } else {
        const weights = stage === "weights" ? slice(carried, seg).filter((_, j) => open[j]) : values;
        trivial = weights.length === 0 || ptp(weights) <= EPS || oneHot(weights, oneHotLimit);
        if (stage === "output") trivial = trivial || values.every((v) => Math.abs(v) <= EPS);
      }
      if (trivial) {  // only a wrong row trivialises: a right one (all scores truly equal) is carried as usual
        let right = true;
        for (let i = prevSegs[h][0]; i < prevSegs[h][1]; i++) {
          if (marked[i] && !(Math.abs(previous[i] - exact[i]) <= limit)) right = false;
        }
        trivial = !right;
      }
      for (let i = seg[0]; i < seg[1]; i++) flags.push(trivial);
    });
    return flags;
  }

  function advance(solution, row, stage, given, own, mode) {
    if (!MODES.includes(mode)) throw new Error("mode must be practice or exam");
    if (mode === "practice") return given === null ? {} : { [stage]: given.slice() };
    const result = Object.assign({}, own || {});
    if (given !== null) {
      result[stage] = given.slice();
    } else {
      const before = previousStage(stage);
      if (before !== null && before in result) result[stage] = carryForward(solution, row, stage, result[before]);
    }
    return result;
  }

  // --- mistakes -----------------------------------------------------------------------

  function perHead(solution, make) {
    const parts = [];
    for (let h = 0; h < solution.heads.length; h++) {
      const part = make(h, solution.heads[h]);
      if (part === null) return null;
      parts.push(...part);
    }
    return parts;
  }

  function columnSoftmax(head, row) {
    const { scaled, mask } = head;
    const n = mask.length, m = mask[0].length;
    const result = [];
    for (let j = 0; j < m; j++) {
      const column = [];
      for (let i = 0; i < n; i++) column.push(mask[i][j] ? scaled[i][j] : -Infinity);
      let top = Math.max(...column);
      if (!Number.isFinite(top)) top = 0.0;
      const e = column.map((v, i) => (mask[i][j] ? Math.exp(v - top) : 0.0));
      const total = npSum(e);
      result.push(mask[row][j] ? e[row] / (total > 0 ? total : 1.0) : 0.0);
    }
    return result;
  }

  function mistakenRows(solution, row, stage, own) {
    own = own || {};
    const before = previousStage(stage);
    let result = exactMistakes(solution, row, stage);
    const basis = before !== null && before in own ? own[before] : null;
    const scores = stage === "weights" && "scores" in own ? own.scores : null;
    if (basis !== null || scores !== null) {
      const carried = basis === null ? null : carryForward(solution, row, stage, basis);
      result = result.concat(ownMistakes(solution, row, stage, basis, carried, scores));
    }
    return inDiagnosisOrder(result);
  }

  // A stable sort: for each code, the mistakes made from the exact rows come first.
  function inDiagnosisOrder(result) {
    return result.map((entry, i) => [entry, i])
      .sort((a, b) => ORDER[a[0].code] - ORDER[b[0].code] || a[1] - b[1])
      .map((pair) => pair[0]);
  }

  function exactMistakes(solution, row, stage) {
    const before = previousStage(stage);
    const bases = [];
    const previous = before === null ? null : stageRow(solution, before, row);
    if (previous !== null) bases.push([previous, stageRow(solution, stage, row)]);
    const scoreRows = stage === "weights" ? [stageRow(solution, "scores", row)] : [];
    let found = mistakes(solution, row, stage, bases, scoreRows, true);
    if (previous !== null && STAGE_ROUNDING[stage]) {
      // early rounding also from the previous stage as displayed, where that differs (mistakes.exact_mistakes)
      const shown = halfUp(previous, solution.decimals);
      if (!sameRow(shown, previous)) {
        const displayed = mistakes(solution, row, stage, [[shown, carryForward(solution, row, stage, shown)]], [], false);
        found = found.concat(displayed.filter((m) => m.code === "rounding"));
      }
    }
    return found;
  }

  function ownMistakes(solution, row, stage, basis, carried, scores) {
    const bases = basis === null ? [] : [[basis, carried]];
    const scoreRows = stage === "weights" && scores !== null ? [scores] : [];
    return mistakes(solution, row, stage, bases, scoreRows, false);
  }

  // A mistaken row: {code, made, right} and, for rounding, {rounding: {kind, places, keep, stage,
  // divisor, rounded}, remake(places)} (grading.Mistake, grading.Rounding).
  const mistake = (code, made, right, rounding = null, remake = null) => ({ code, made, right, rounding, remake });

  // (head.Q[row] @ head.K.T) / head.divisor: the row's scaled scores over every key, the mask ignored.
  const unmaskedScaled = (head, row) => head.raw[row].map((v) => v / head.divisor);

  function mistakes(solution, row, stage, bases, scoreRows, fixed) {
    const before = previousStage(stage);
    const prevSegs = before !== null ? segments(solution, before) : [];
    const placesTried = roundPlaces(solution);
    const maskedRow = solution.heads.some((head) => head.mask[row].includes(false));
    const result = [];
    const add = (code, made, right) => { if (made !== null) result.push(mistake(code, made, right)); };
    const roundedDivisor = (places, head) => {
      const value = halfUp([head.divisor], places)[0];
      return value === head.divisor || value <= 0 ? null : value;
    };
    const divisorLabels = (places) => {
      for (const head of solution.heads) {
        const value = roundedDivisor(places, head);
        if (value !== null) {
          const name = solution.divide_by === null ? `√${head.d_k}` : AT.numbers.fmtGiven(head.divisor, MAX_KEEP);
          return { divisor: name, rounded: AT.numbers.fmtGiven(value, places) };
        }
      }
      return { divisor: "", rounded: "" };
    };
    const rounding = (kind, places, where, labels = {}) =>
      Object.assign({ kind, places, keep: 0, stage: where, divisor: "", rounded: "" }, labels);

    if (stage === "scores" && fixed) {
      add("transposed_scores", perHead(solution, (h, head) => {
        if (head.Q.length !== head.K.length) return null;
        return head.mask[row].map((open, j) => (open ? head.raw[j][row] : NaN));
      }), stageRow(solution, stage, row));
    }
    for (const [basis, right] of bases) {
      if (stage === "scaled") {
        add("not_scaled", perHead(solution, (h, hd) => where(hd.mask[row], slice(basis, prevSegs[h]), NaN)), right);
        if (solution.divide_by === null) {
          add("divided_by_d", perHead(solution, (h, hd) => where(hd.mask[row], slice(basis, prevSegs[h]).map((v) => v / hd.d_k), NaN)), right);
        }
        const byRoundedDivisor = (places) => {
          if (solution.heads.every((hd) => roundedDivisor(places, hd) === null)) return null;
          return perHead(solution, (h, hd) => where(hd.mask[row], slice(basis, prevSegs[h]).map((v) => v / (roundedDivisor(places, hd) || hd.divisor)), NaN));
        };
        const fromRoundedScores = (places) => {
          if (places >= solution.decimals) return null; // the previous row rounded as asked: correct work
          const rounded = halfUp(basis, places);
          if (sameRow(rounded, basis)) return null;
          return perHead(solution, (h, hd) => where(hd.mask[row], slice(rounded, prevSegs[h]).map((v) => v / hd.divisor), NaN));
        };
        for (const places of placesTried) {
          const made = byRoundedDivisor(places);
          if (made !== null) result.push(mistake("rounding", made, right, rounding("divisor", places, stage, divisorLabels(places)), byRoundedDivisor));
        }
        for (const places of placesTried) {
          const made = fromRoundedScores(places);
          if (made !== null) result.push(mistake("rounding", made, right, rounding("previous", places, before), fromRoundedScores));
        }
      } else if (stage === "weights") {
        add("no_exp", perHead(solution, (h, head) => {
          const mask = head.mask[row];
          const part = where(mask, slice(basis, prevSegs[h]), 0.0);
          const total = npSum(part);
          return Math.abs(total) <= EPS ? null : where(mask, part.map((v) => v / total), 0.0);
        }), right);
        add("not_normalized", perHead(solution, (h, hd) => studentExps(slice(basis, prevSegs[h]), hd.mask[row])), right);
        if (maskedRow) {
          const full = perHead(solution, (h, head) => {
            const open = head.mask[row];
            const scaled = unmaskedScaled(head, row);
            const x = slice(basis, prevSegs[h]).map((v, j) => (open[j] ? v : scaled[j]));
            return softmax(x, x.map(() => true));
          });
          add("ignored_mask", full, right);
          const open = openCells(solution, row, stage);
          add("ignored_mask", full.map((v, i) => (open[i] ? v : 0.0)), right);
        }
        const fromRoundedScaled = (places) => {
          if (places >= solution.decimals) return null; // the previous row rounded as asked: correct work
          const rounded = halfUp(basis, places);
          if (sameRow(rounded, basis)) return null;
          return perHead(solution, (h, hd) => softmax(where(hd.mask[row], slice(rounded, prevSegs[h]), 0.0), hd.mask[row]));
        };
        const fromRoundedExps = (places) => perHead(solution, (h, head) => {
          const mask = head.mask[row];
          const e = halfUp(studentExps(slice(basis, prevSegs[h]), mask), places);
          const total = npSum(e);
          return !Number.isFinite(total) || total <= 0 ? null : where(mask, e.map((v) => v / total), 0.0);
        });
        const fromRoundedSum = (places) => perHead(solution, (h, head) => {
          const mask = head.mask[row];
          const e = studentExps(slice(basis, prevSegs[h]), mask);
          const total = halfUp([npSum(e)], places)[0];
          return !Number.isFinite(total) || total <= 0 ? null : where(mask, e.map((v) => v / total), 0.0);
        });
        for (const [kind, remake, at] of [["previous", fromRoundedScaled, before], ["exps", fromRoundedExps, stage], ["sum", fromRoundedSum, stage]]) {
          for (const places of placesTried) {
            const made = remake(places);
            if (made !== null) result.push(mistake("rounding", made, right, rounding(kind, places, at), remake));
          }
        }
      } else if (stage === "output") {
        add("used_keys", perHead(solution, (h, head) => {
          if (head.K[0].length !== head.V[0].length) return null;
          return mix(slice(basis, prevSegs[h]), head.K);
        }), right);
        const fromRoundedWeights = (places) => {
          if (places >= solution.decimals) return null; // the previous row rounded as asked: correct work
          const rounded = halfUp(basis, places);
          if (sameRow(rounded, basis)) return null;
          return perHead(solution, (h, hd) => mix(slice(rounded, prevSegs[h]), hd.V));
        };
        for (const places of placesTried) {
          const made = fromRoundedWeights(places);
          if (made !== null) result.push(mistake("rounding", made, right, rounding("previous", places, before), fromRoundedWeights));
        }
      }
    }
    if (stage === "weights") {
      const scoreSegs = segments(solution, "scores");
      for (const scores of scoreRows) {
        const made = perHead(solution, (h, hd) => softmax(where(hd.mask[row], slice(scores, scoreSegs[h]), 0.0), hd.mask[row]));
        const right = perHead(solution, (h, hd) =>
          softmax(where(hd.mask[row], slice(scores, scoreSegs[h]).map((v) => v / hd.divisor), 0.0), hd.mask[row]));
        add("skipped_scaling", made, right);
        const byRoundedDivisor = (places) => {
          if (solution.heads.every((hd) => roundedDivisor(places, hd) === null)) return null;
          return perHead(solution, (h, hd) => softmax(where(hd.mask[row],
            slice(scores, scoreSegs[h]).map((v) => v / (roundedDivisor(places, hd) || hd.divisor)), 0.0), hd.mask[row]));
        };
        for (const places of placesTried) {
          const made2 = byRoundedDivisor(places);
          if (made2 !== null) result.push(mistake("rounding", made2, right, rounding("divisor", places, stage, divisorLabels(places)), byRoundedDivisor));
        }
      }
    }
    if (stage === "weights" && fixed) {
      add("column_softmax", perHead(solution, (h, hd) => columnSoftmax(hd, row)), stageRow(solution, stage, row));
    }
    if (stage === "output" && fixed && maskedRow && solution.output !== null) {
      add("ignored_mask", perHead(solution, (h, hd) => {
        const x = unmaskedScaled(hd, row);
        return mix(softmax(x, x.map(() => true)), hd.V);
      }), stageRow(solution, stage, row));
    }
    return result;
  }

  // grading._keep: the fewest places (more than it kept) whose row stays within tolerance of the right one.
  function keepOf(m, cells, tolerance) {
    for (let places = m.rounding.places + 1; places <= MAX_KEEP; places++) {
      const made = m.remake(places);
      if (made === null || close(made, m.right, cells, tolerance + EPS)) return Object.assign({}, m.rounding, { keep: places });
    }
    return Object.assign({}, m.rounding, { keep: MAX_KEEP });
  }

  // Every cell in `cells` (indices): |a - b| <= limit; NaN never is.
  function close(a, b, cells, limit) { return cells.every((i) => Math.abs(a[i] - b[i]) <= limit); }

  // --- marking ------------------------------------------------------------------------

  function verdictOf(cells) {
    const marked = cells.filter((c) => c !== "masked");
    if (marked.every((c) => c === "missing")) return "missing";
    const right = marked.map((c) => c === "correct" || c === "follow_through");
    if (marked.every((c) => c === "correct")) return "correct";
    if (right.every(Boolean)) return "follow_through";
    return right.some(Boolean) ? "partial" : "wrong";
  }

  // grading.mark_stage: one stage of one query row, marked. `given`: the row (numbers) or null.
  function markStage(solution, row, stage, given, own, options = {}) {
    const followThrough = options.followThrough || "full";
    const hints = options.hints || 0;
    if (!solution.stages.includes(stage)) throw new Error(`problem ${solution.id} has no stage ${stage}`);
    if (!(followThrough in FOLLOW_THROUGH)) throw new Error("follow_through must be full, half or none");
    own = own || {};
    const exact = stageRow(solution, stage, row);
    const marked = markedCells(solution, row, stage);
    const markedIndex = marked.map((m, i) => (m ? i : -1)).filter((i) => i >= 0);
    const before = previousStage(stage);
    const basis = before !== null && before in own ? own[before] : null;
    let carried = null, trivial = null;
    if (basis !== null) {
      carried = carryForward(solution, row, stage, basis);
      trivial = trivialCarry(solution, row, stage, basis);
    }
    const common = {
      problem: solution.id, row: solution.tokens[row], stage,
      expected: exact.map((v, i) => (marked[i] ? v : null)), hints, max_points: 1.0,
      carried: carried === null ? null : carried.map((v, i) => (marked[i] ? v : null)),
    };
    if (given === null) {
      return Object.assign(common, { given: null, cells: marked.map((m) => (m ? "missing" : "masked")),
        verdict: "missing", diagnosis: null, diagnosis_detail: null, points: 0.0 });
    }
    if (given.length !== exact.length) throw new Error(`a ${stage} row has ${exact.length} cells, not ${given.length}`);
    const tolerance = stageTolerance(solution, stage) + EPS;
    const cells = given.map((value, i) => {
      if (!marked[i]) return "masked";
      if (inWindow(solution, stage, row, i, value)) return "correct";
      if (carried !== null && !trivial[i] && Math.abs(value - carried[i]) <= tolerance) return "follow_through";
      return "wrong";
    });
    const verdict = verdictOf(cells);
    let diagnosis = null, detail = null;
    if (verdict === "partial" || verdict === "wrong") {
      const scores = stage === "weights" && "scores" in own ? own.scores : null;
      const candidates = diagnosisCandidates(solution, row, stage, exact, carried, markedIndex, basis, scores);
      [diagnosis, detail] = diagnoseValues(markedIndex, candidates, given, cells);
      if (diagnosis === null && cells.includes("wrong") && STAGE_ROUNDING[stage]) {  // digits only early rounding gives
        detail = shownRounding(solution, row, stage, given, basis !== null ? { [before]: basis } : null);
        diagnosis = detail === null ? null : "rounding";
      }
    }
    const credit = { correct: 1.0, follow_through: FOLLOW_THROUGH[followThrough] };
    const scored = cells.filter((s) => s !== "masked").map((s) => credit[s] || 0.0);
    const points = scored.length ? AT.numbers.pyRound(npSum(scored) / scored.length, 4) : 0.0;
    return Object.assign(common, { given: given.slice(), cells, verdict, diagnosis, diagnosis_detail: detail, points });
  }

  // grading._Memo.candidates: the mistakes diagnose tries, in order, less those that change no
  // number, each with what a rounding found and how close an answer must come to it.
  function diagnosisCandidates(solution, row, stage, exact, carried, markedIndex, basis, scores) {
    let found = exactMistakes(solution, row, stage);
    if (basis !== null || scores !== null) found = found.concat(ownMistakes(solution, row, stage, basis, carried, scores));
    const rights = [exact].concat(carried !== null ? [carried] : []);
    const tolerance = stageTolerance(solution, stage);
    const window = matchWindow(solution, stage);
    const limit = tolerance + EPS;
    const wide = 2 * window + EPS;
    const result = [];
    for (const m of inDiagnosisOrder(found)) {
      const others = rights.concat([m.right]);
      if (others.some((other) => close(m.made, other, markedIndex, limit))) continue;
      const apart = !others.some((other) => close(m.made, other, markedIndex, wide));
      const detail = m.rounding === null ? null : keepOf(m, markedIndex, tolerance);
      result.push([m.code, m.made, detail, (apart ? window : tolerance) + EPS]);
    }
    return result;
  }

  // grading._diagnose_values: the first candidate every marked cell matches, else none.
  function diagnoseValues(markedIndex, candidates, values, cells) {
    if (!cells.includes("wrong")) return [null, null];
    for (const [code, made, detail, limit] of candidates) {
      if (close(values, made, markedIndex, limit)) return [code, detail];
    }
    return [null, null];
  }

  // grading.explanation: the sentence for an item's diagnosis (for rounding: which number, places to keep).
  function explanation(item, t) {
    if (item.diagnosis === null) return null;
    const found = item.diagnosis_detail;
    if (item.diagnosis !== "rounding" || !found) return t(`grading.diagnosis.${item.diagnosis}`);
    return roundingSentence(found, t);
  }

  // grading.early_rounding: what a right row shows was rounded too soon (practice's note), else null.
  function earlyRounding(solution, row, item, own) {
    if (item.verdict !== "correct" || item.given === null) return null;
    return shownRounding(solution, row, item.stage, item.given, own);
  }

  // grading.shown_rounding: the early rounding a row's numbers show at the asked decimals, else null.
  function shownRounding(solution, row, stage, values, own) {
    const decimals = solution.decimals;
    const cells = markedCells(solution, row, stage).map((m, i) => (m ? i : -1)).filter((i) => i >= 0);
    const shown = (v) => cells.map((i) => AT.numbers.roundHalfUp(v[i], decimals));
    const same = (a, b) => a.every((v, i) => v === b[i]);
    const given = shown(values);
    if (same(given, shown(stageRow(solution, stage, row)))) return null;
    let found = exactMistakes(solution, row, stage).filter((m) => m.code === "rounding");
    const before = previousStage(stage);
    const basis = own && before !== null && before in own ? own[before] : null;
    if (basis !== null) {
      const carried = carryForward(solution, row, stage, basis);
      found = found.concat(ownMistakes(solution, row, stage, basis, carried, null).filter((m) => m.code === "rounding"));
    }
    for (const m of found) {
      const right = shown(m.right);
      if (!same(shown(m.made), given) || same(right, given)) continue;
      let keep = MAX_KEEP;
      for (let places = m.rounding.places + 1; places <= MAX_KEEP; places++) {
        const made = m.remake(places);
        if (made === null || same(shown(made), right)) { keep = places; break; }
      }
      return Object.assign({}, m.rounding, { keep });
    }
    return null;
  }

  // grading.rounding_sentence: which number was rounded, to how many places, and how many to keep.
  function roundingSentence(found, t) {
    const places = (n) => (n === 0 || n === 1 ? t(`grading.places_${n}`) : t("grading.places", { n }));
    return t(`grading.rounding.${found.kind}`, {
      places: places(found.places), keep: places(found.keep),
      stage: found.kind === "previous" ? t(`grading.rounded_stage.${found.stage}`) : "",
      divisor: found.divisor, rounded: found.rounded,
    });
  }

  // grading.mark_row: one item per asked stage, in pipeline order. answers: {stage: row | null}.
  function markRow(solution, row, answers, options = {}) {
    const asked = options.stages || solution.asked_stages;
    const mode = options.mode || "exam";
    const hints = options.hints || {};
    if (!MODES.includes(mode)) throw new Error("mode must be practice or exam");
    const items = [];
    let own = {};
    for (const stage of solution.stages) {
      const isAsked = asked.includes(stage);
      const given = isAsked && answers[stage] !== undefined ? answers[stage] : null;
      if (isAsked) items.push(markStage(solution, row, stage, given, own, { followThrough: options.followThrough, hints: hints[stage] || 0 }));
      own = advance(solution, row, stage, given, own, mode);
    }
    return items;
  }

  function score(items) { return AT.numbers.pyRound(items.reduce((sum, item) => sum + item.points, 0), 4); }

  AT.marking = {
    STAGES, VERDICTS, DIAGNOSES, MODES, FOLLOW_THROUGH, EPS,
    scale, softmax, studentExps, mix, npSum,
    previousStage, segments, rowWidth, openCells, markedCells, stageRow,
    carryForward, trivialCarry, advance, mistakenRows, markStage, markRow, score, explanation,
    earlyRounding, roundingSentence,
    stageTolerance, matchWindow,
  };
})(globalThis.AttnTutor = globalThis.AttnTutor || {});
