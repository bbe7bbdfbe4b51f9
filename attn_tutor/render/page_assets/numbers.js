// How numbers are shown: a port of attn_tutor/numbers.py (rounded half up from the shortest
// decimal that reads back as the same float, never -0.000), and Python's round(x, n).
(function (AT) {
  "use strict";

  // The shortest round-trip decimal of x (Python's repr, JavaScript's String) as [sign, digits, point]:
  // value = sign * 0.digits * 10^point.
  function decimalParts(x) {
    let text = String(Math.abs(x));
    let exponent = 0;
    const e = text.indexOf("e");
    if (e >= 0) {
      exponent = Number(text.slice(e + 1));
      text = text.slice(0, e);
    }
    let dot = text.indexOf(".");
    if (dot < 0) dot = text.length;
    const digits = text.replace(".", "");
    return [x < 0 || Object.is(x, -0) ? -1 : 1, digits, dot + exponent];
  }

  function roundHalfUpText(x, decimals) {
    const [sign, digits, point] = decimalParts(x);
    // digits as an integer scaled to `decimals` places, rounded half up (away from zero).
    const keep = point + decimals; // how many leading digits survive
    let kept;
    let roundUp = false;
    if (keep <= 0) {
      kept = "0";
      roundUp = keep === 0 && digits[0] >= "5";
    } else if (keep >= digits.length) {
      kept = digits + "0".repeat(keep - digits.length);
    } else {
      kept = digits.slice(0, keep);
      roundUp = digits[keep] >= "5";
    }
    let n = BigInt(kept) + (roundUp ? 1n : 0n);
    let body = n.toString();
    if (decimals > 0) {
      body = body.padStart(decimals + 1, "0");
      body = body.slice(0, body.length - decimals) + "." + body.slice(body.length - decimals);
    }
    const zero = n === 0n;
    return (sign < 0 && !zero ? "-" : "") + body;
  }

  function fmt(x, decimals = 3, missing = "—") {
    if (x === null || x === undefined || Number.isNaN(x)) return missing;
    if (!Number.isFinite(x)) return x > 0 ? "∞" : "-∞";
    return roundHalfUpText(x, decimals);
  }

  function fmtGiven(x, decimals = 3) {
    if (Number.isInteger(x) && Math.abs(x) < 1e15) return String(Math.trunc(x) + 0);
    const text = fmt(x, decimals);
    return text.includes(".") ? text.replace(/0+$/, "").replace(/\.$/, "") : text;
  }

  function fmtRow(values, decimals = 3) {
    return "(" + values.map((v) => fmt(v, decimals)).join(", ") + ")";
  }

  // Python's round(x, places): the nearest, ties to even, judged on the exact binary value.
  function pyRound(x, places) {
    const wide = x.toFixed(20);
    const dot = wide.indexOf(".");
    const tail = wide.slice(dot + 1 + places);
    let text = x.toFixed(places);
    if (/^50*$/.test(tail)) {
      // an exact tie: toFixed rounded away from zero; Python keeps the even digit
      const down = wide.slice(0, dot + 1 + places);
      const last = Number(down[down.length - 1]);
      if (last % 2 === 0) text = down;
    }
    return Number(text) + 0;
  }

  AT.numbers = { fmt, fmtGiven, fmtRow, pyRound };
})(globalThis.AttnTutor = globalThis.AttnTutor || {});
